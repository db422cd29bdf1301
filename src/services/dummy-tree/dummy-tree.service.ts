import { Bean, Exposed } from '../../bean';
import { Role } from '../../common/principal';

export interface TreeElement {
  id: string;
  name: string;
  children: TreeElement[];
}

function element(id: string, name: string, children: TreeElement[] = []): TreeElement {
  return { id, name, children };
}

/** A small fixed tree (a shop's navigation) for clients to test tree widgets against. */
const ELEMENTS: readonly TreeElement[] = [
  element('1', 'Plants', [
    element('1.1', 'Indoor', [element('1.1.1', 'Succulents'), element('1.1.2', 'Ferns'), element('1.1.3', 'Palms')]),
    element('1.2', 'Outdoor', [element('1.2.1', 'Shrubs'), element('1.2.2', 'Perennials')]),
  ]),
  element('2', 'Seeds', [element('2.1', 'Vegetables'), element('2.2', 'Herbs'), element('2.3', 'Flowers')]),
  element('3', 'Accessories', [
    element('3.1', 'Pots', [element('3.1.1', 'Ceramic'), element('3.1.2', 'Terracotta')]),
    element('3.2', 'Tools'),
  ]),
];

@Bean('dummyTree', Role.ADMIN)
export class DummyTreeService {
  @Exposed()
  getElements(): readonly TreeElement[] {
    return ELEMENTS;
  }
}
