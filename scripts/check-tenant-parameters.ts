// Checks how the functions of modules/ and warehouse/ take their tenant (docs/ARCHITECTURE.md, modules): right after the
// database handle and the ports (or the services object that holds them), as `client: Client` when the function uses
// more of the client than its id (its clock, default warehouse or username, or hands the client on), else as
// `clientId: number`. Written by hand on the TypeScript parser because the rule is about how a parameter is used in its
// function's body, which neither Biome's rules nor the typecheck see. Run by `npm run lint`; it prints each function that
// breaks the rule. server/test/tenant-parameters.test.ts holds what it refuses.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

const root = join(import.meta.dirname, '..');
const folders = ['server/src/modules', 'server/src/warehouse'];

/** What may come before the tenant: the database handle, the per-app ports of ModuleServices, or ModuleServices itself. */
const beforeTenant: ReadonlySet<string> = new Set(['Db', 'Tx', 'EventPayloads', 'OrderPlacing', 'TokenCache', 'ModuleServices']);

type FunctionNode = ts.FunctionDeclaration | ts.ArrowFunction | ts.FunctionExpression;

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) yield path;
  }
}

/**
 * The file's own functions: top-level declarations and top-level constants holding a function. Class methods (the token
 * cache, the request-log writer) hold clients as values, not as the tenant they work for, and closures inside a function
 * follow their function.
 */
function* functionsOf(file: ts.SourceFile): Generator<{ name: string; node: FunctionNode }> {
  for (const statement of file.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.body) yield { name: statement.name?.text ?? 'default', node: statement };
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        const init = declaration.initializer;
        if (init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) && ts.isIdentifier(declaration.name))
          yield { name: declaration.name.text, node: init };
      }
    }
  }
}

/** Whether the body uses `client`, and only as `client.id`. */
function usesOnlyTheId(body: ts.Node): boolean {
  let onlyId = true;
  let used = false;
  const visit = (node: ts.Node) => {
    if (ts.isIdentifier(node) && node.text === 'client') {
      const parent = node.parent;
      const isPropertyName =
        (ts.isPropertyAccessExpression(parent) && parent.name === node) || (ts.isPropertyAssignment(parent) && parent.name === node);
      if (!isPropertyName) {
        used = true;
        if (!(ts.isPropertyAccessExpression(parent) && parent.expression === node && parent.name.text === 'id')) onlyId = false;
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(body);
  return used && onlyId;
}

/** The problems of one source file, each as `<path>:<line> <function>: <what is wrong>`. */
export function tenantProblems(path: string, text: string): string[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const problems: string[] = [];
  for (const { name, node } of functionsOf(file)) {
    const params = node.parameters.map((p) => ({ name: p.name.getText(file), type: p.type?.getText(file) ?? '' }));
    const at = `${path}:${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1} ${name}`;
    const tenant = params.findIndex((p) => p.type === 'Client' || p.name === 'client' || p.name === 'clientId');
    if (tenant === -1) continue;
    const { name: param, type } = params[tenant];
    if (type === 'Client' && param !== 'client') problems.push(`${at}: the Client parameter is called ${param}; call it client`);
    if (param === 'client' && type !== 'Client')
      problems.push(`${at}: client is typed ${type || 'nothing'}; type it Client, or take clientId: number`);
    if (param === 'clientId' && type !== 'number') problems.push(`${at}: clientId is typed ${type || 'nothing'}; type it number`);
    if (type === 'Client' && node.body && usesOnlyTheId(node.body))
      problems.push(`${at}: uses only client.id; take clientId: number, so a caller that knows only the id can call it`);
    const early = params.slice(0, tenant).filter((p) => !beforeTenant.has(p.type));
    if (early.length)
      problems.push(`${at}: ${early.map((p) => p.name).join(', ')} before the tenant; it comes right after the database and the ports`);
  }
  return problems;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const problems = folders
    .flatMap((folder) => [...sourceFiles(join(root, folder))])
    .flatMap((path) => tenantProblems(relative(root, path), readFileSync(path, 'utf8')));
  if (problems.length) {
    console.error(`Functions that take their tenant another way (docs/ARCHITECTURE.md, modules):\n${problems.join('\n')}`);
    process.exit(1);
  }
}
