import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildOpenApi, operations } from '../src/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'openapi-'));

describe.each(['v3', 'v2'] as const)('the %s OpenAPI document', (version) => {
  const doc = buildOpenApi(version);
  const file = join(dir, `${version}.json`);
  writeFileSync(file, JSON.stringify(doc));

  it('passes @redocly/cli lint', () => {
    const output = execFileSync('npx', ['@redocly/cli', 'lint', '--format', 'json', file], {
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off' },
    });
    const report = JSON.parse(output.slice(output.indexOf('{')));
    const errors = report.problems.filter((p: { severity: string }) => p.severity === 'error');
    expect(errors.map((e: { message: string }) => e.message)).toEqual([]);
  });

  it('describes every operation with a summary, a description and a success answer with an example or schema', () => {
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods as Record<string, any>)) {
        expect(op.summary, `${method} ${path}`).toBeTruthy();
        expect(op.description.length, `${method} ${path}`).toBeGreaterThan(10);
        const success = Object.entries(op.responses).find(([status]) => status.startsWith('2'))?.[1] as any;
        expect(success, `${method} ${path}`).toBeDefined();
        if (op.requestBody)
          expect(
            Object.values(op.requestBody.content as Record<string, any>)[0].example ??
              Object.values(op.requestBody.content as Record<string, any>)[0].schema,
            `${method} ${path}`,
          ).toBeDefined();
      }
    }
  });
});

describe('the operation list', () => {
  it('has unique operation ids and unique method + path pairs', () => {
    const ids = operations.map((o) => o.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const routes = operations.flatMap((o) => [o.path, ...(o.aliases ?? [])].map((p) => `${o.method} ${p.toLowerCase()}`));
    expect(new Set(routes).size).toBe(routes.length);
  });

  it('documents a request example for every operation that takes a JSON body', () => {
    const structured = new Set(['application/json', 'application/vnd.api+json', 'application/x-www-form-urlencoded']);
    const takesDocument = (o: (typeof operations)[number]) =>
      o.body && (o.bodyContentTypes ?? ['application/json']).every((t) => structured.has(t));
    const missing = operations.filter((o) => takesDocument(o) && o.requestExample === undefined).map((o) => o.operationId);
    expect(missing).toEqual([]);
  });
});
