import { Controller, Get, HttpCode, Module, Post } from '@nestjs/common';
import { Roles } from '../../src/auth/roles.decorator';
import { Bean, Exposed } from '../../src/bean';
import { Role } from '../../src/common/principal';
import { DummyTreeModule } from '../../src/services/dummy-tree/dummy-tree.module';
import { DummyTreeService, TreeElement } from '../../src/services/dummy-tree/dummy-tree.service';

/** `dummyTree` is ADMIN-only; this GUEST twin measures the gateway without a token. */
@Bean('benchTree', Role.GUEST)
export class BenchTreeBean {
  constructor(private readonly tree: DummyTreeService) {}

  @Exposed()
  getElements(): readonly TreeElement[] {
    return this.tree.getElements();
  }
}

/** The baseline: plain Nest routes returning the same tree, behind the same global guard and interceptor. */
@Controller('bench/tree')
export class PlainTreeController {
  constructor(private readonly tree: DummyTreeService) {}

  @Post()
  @HttpCode(200)
  open(): readonly TreeElement[] {
    return this.tree.getElements();
  }

  @Post('admin')
  @HttpCode(200)
  @Roles(Role.ADMIN)
  admin(): readonly TreeElement[] {
    return this.tree.getElements();
  }
}

/** The server's CPU time so far: per request it is a steadier measure than req/s on a shared machine. */
@Controller('bench/cpu')
export class CpuController {
  @Get()
  usage(): NodeJS.CpuUsage {
    return process.cpuUsage();
  }
}

@Module({ imports: [DummyTreeModule], controllers: [PlainTreeController, CpuController], providers: [BenchTreeBean] })
export class BenchModule {}
