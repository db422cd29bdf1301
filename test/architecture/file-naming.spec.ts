import { findNamingViolations } from './file-naming';
import { readSources, repositoryRoot, SourceFile } from './model-ownership';

const file = (path: string, text: string): SourceFile => ({ path, text });

describe('file-naming checker', () => {
  it('should accept a bean in its *.service.ts file and a provider named for what it does', () => {
    const files = [
      file(
        'src/services/orders/orders.service.ts',
        `@Bean('orderServiceImpl')\n@Injectable()\nexport class OrdersService {}`,
      ),
      file('src/services/orders/order-expiry.ts', `@Injectable()\nexport class OrderExpiry {}`),
      file('src/services/orders/order-view.ts', `export class LegacyService {}`),
    ];
    expect(findNamingViolations(files)).toEqual([]);
  });

  it('should report a bean outside a *.service.ts file or not named *Service', () => {
    const misplaced = file('src/services/orders/orders.ts', `\n@Bean('orderServiceImpl')\nexport class Orders {}`);
    expect(findNamingViolations([misplaced])).toEqual([
      expect.objectContaining({ file: misplaced.path, line: 3, rule: 'bean-outside-service-file' }),
      expect.objectContaining({ file: misplaced.path, line: 3, rule: 'bean-not-named-service' }),
    ]);
  });

  it('should report a *.service.ts file without a bean and a non-bean injectable named *Service', () => {
    const mail = file('src/mail/mail.service.ts', `@Injectable()\nexport class MailService {}`);
    expect(findNamingViolations([mail])).toEqual([
      expect.objectContaining({ file: mail.path, line: 2, rule: 'service-not-a-bean' }),
      expect.objectContaining({ file: mail.path, line: 1, rule: 'service-file-without-bean' }),
    ]);
    expect(findNamingViolations([mail])[0].detail).toBe(
      'MailService is not a bean: name it for what it does, without the Service suffix',
    );
  });
});

describe('the application', () => {
  const sources = readSources(repositoryRoot);

  it('should read the beans of src/', () => {
    const beanFiles = sources.filter((source) => /^@Bean\(/m.test(source.text));
    expect(beanFiles.length).toBeGreaterThan(20);
  });

  it('should keep *.service.ts for beans only, and the Service suffix for bean classes only', () => {
    expect(findNamingViolations(sources)).toEqual([]);
  });
});
