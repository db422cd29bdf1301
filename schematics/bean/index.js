'use strict';
/**
 * The `bean` schematic: `npx nest g -c ./schematics bean <name>`. Plain CommonJS so it runs without a build step,
 * type-checked through its JSDoc (schematics/tsconfig.json). Adds the module to AppModule's imports with
 * @nestjs/schematics' public ModuleDeclarator (TypeScript AST).
 */
const { normalize, strings } = require('@angular-devkit/core');
const {
  apply,
  applyTemplates,
  chain,
  mergeWith,
  move,
  SchematicsException,
  url,
} = require('@angular-devkit/schematics');
const { ModuleDeclarator } = require('@nestjs/schematics');

/** @typedef {import('@angular-devkit/schematics').Rule} Rule */
/** @typedef {{ name?: string; id?: string; role?: string; sourceRoot?: string; skipImport?: boolean }} BeanOptions */

const BEAN_ID = /^[A-Za-z][A-Za-z0-9_]*$/;

/**
 * @param {BeanOptions} options
 * @returns {Rule}
 */
function bean(options) {
  const name = strings.dasherize(options.name || '');
  if (!/^[a-z][a-z0-9-]*$/.test(name))
    throw new SchematicsException(`Invalid bean name '${options.name}': use letters, digits and dashes`);
  const beanId = options.id || `${strings.camelize(name)}ServiceImpl`;
  if (!BEAN_ID.test(beanId)) throw new SchematicsException(`Invalid bean id '${beanId}'`);
  const sourceRoot = options.sourceRoot || 'src';
  const directory = `${sourceRoot}/services/${name}`;
  return chain([
    refuseExisting(directory),
    mergeWith(
      apply(url('./files'), [
        applyTemplates({ ...strings, name, beanId, role: options.role || 'ADMIN' }),
        move(directory),
      ]),
    ),
    options.skipImport ? () => undefined : importInAppModule(`${sourceRoot}/app.module.ts`, directory, name),
  ]);
}

/**
 * @param {string} directory
 * @returns {Rule}
 */
function refuseExisting(directory) {
  return (tree) => {
    if (tree.getDir(directory).subfiles.length > 0) throw new SchematicsException(`${directory} already exists`);
  };
}

/**
 * @param {string} appModule
 * @param {string} directory
 * @param {string} name
 * @returns {Rule}
 */
function importInAppModule(appModule, directory, name) {
  return (tree) => {
    const content = tree.read(appModule);
    if (!content) throw new SchematicsException(`${appModule} not found`);
    const options = {
      metadata: 'imports',
      type: 'module',
      name,
      path: normalize(directory),
      module: normalize(`/${appModule}`),
    };
    tree.overwrite(appModule, new ModuleDeclarator().declare(content.toString('utf8'), options));
  };
}

module.exports = { bean };
