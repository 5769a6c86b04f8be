/**
 * The GitOps examples as Flux and Argo CD execute them: the Flux health expressions evaluated with
 * a CEL library and the Argo CD health check run in a Lua VM, on the KubeVirt CR statuses that
 * matter (installing, available, upgrading with Available, Progressing and Degraded all true,
 * degraded, no status at all); and what Flux does before applying a Kustomization: build its path,
 * apply targetNamespace, refuse a namespaced object without a namespace.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { parseAllDocuments } from 'yaml';
import { REPO } from './helpers';

// fengari ships no types: the few entry points used here (a CommonJS module without declarations).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const fengari = require('fengari') as {
  lua: Record<string, (...a: unknown[]) => unknown> & { LUA_OK: number };
  lauxlib: Record<string, (...a: unknown[]) => unknown>;
  lualib: { luaL_openlibs: (L: unknown) => void };
  to_luastring: (s: string) => Uint8Array;
  to_jsstring: (s: Uint8Array) => string;
};

type Obj = Record<string, unknown>;
const docs = (file: string): Obj[] =>
  parseAllDocuments(readFileSync(path.join(REPO, 'examples', file), 'utf8'))
    .map((d) => d.toJS() as Obj)
    .filter((d) => d !== null);

const condition = (type: string, status: string, message = ''): Obj => ({ type, status, message });
const STATUSES: Record<string, Obj> = {
  installing: { status: { conditions: [condition('Available', 'False'), condition('Progressing', 'True'), condition('Degraded', 'False')] } },
  available: { status: { conditions: [condition('Available', 'True'), condition('Progressing', 'False'), condition('Degraded', 'False')] } },
  upgrading: { status: { conditions: [condition('Available', 'True'), condition('Progressing', 'True'), condition('Degraded', 'True', 'upgrading')] } },
  degraded: {
    status: {
      conditions: [condition('Available', 'False'), condition('Progressing', 'False'), condition('Degraded', 'True', 'virt-handler is crash-looping')],
    },
  },
  'no status': {},
};
const KUBEVIRT = (extra: Obj): Obj => ({ apiVersion: 'kubevirt.io/v1', kind: 'KubeVirt', metadata: { name: 'kubevirt', namespace: 'kubevirt' }, ...extra });

describe('Flux health expressions (CEL)', () => {
  const kubevirt = docs('flux/kustomizations.yaml').find((d) => (d['metadata'] as Obj)['name'] === 'kubevirt')!;
  const expr = ((kubevirt['spec'] as Obj)['healthCheckExprs'] as Obj[])[0]!;
  /** kustomize-controller: failed first, then current; an expression that cannot be evaluated leaves the check in progress. */
  const verdicts = (objects: Obj[]): string[] => {
    const r = spawnSync(process.execPath, [path.join(REPO, 'test', 'cel-eval.mjs')], {
      input: JSON.stringify({ expressions: [expr['failed'], expr['current']], objects }),
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(r.stderr);
    return (JSON.parse(r.stdout) as (boolean | 'error')[][]).map(([failed, current]) =>
      failed === true ? 'failed' : current === true ? 'current' : 'in progress',
    );
  };
  const names = Object.keys(STATUSES);
  const all = verdicts(names.map((n) => KUBEVIRT(STATUSES[n]!)));
  const verdict = (obj: Obj): string => all[names.findIndex((n) => KUBEVIRT(STATUSES[n]!)['status'] === obj['status'])]!;

  it.each([
    ['installing', 'in progress'],
    ['available', 'current'],
    ['upgrading', 'in progress'],
    ['degraded', 'failed'],
    ['no status', 'in progress'],
  ])('a KubeVirt CR %s is %s', (status, expected) => {
    expect(verdict(KUBEVIRT(STATUSES[status]!))).toBe(expected);
  });
});

describe('Argo CD health check (Lua)', () => {
  const cm = docs('argocd/argocd-cm.yaml').find((d) => d['kind'] === 'ConfigMap')!;
  const script = (cm['data'] as Obj)['resource.customizations.health.kubevirt.io_KubeVirt'] as string;
  const { lua, lauxlib, lualib, to_luastring, to_jsstring } = fengari;

  /** A Lua table constructor for a JSON value. */
  const literal = (v: unknown): string => {
    if (v === null || v === undefined) return 'nil';
    if (typeof v === 'string') return JSON.stringify(v);
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
    if (Array.isArray(v)) return `{${v.map(literal).join(', ')}}`;
    return `{${Object.entries(v as Obj)
      .map(([k, x]) => `[${JSON.stringify(k)}] = ${literal(x)}`)
      .join(', ')}}`;
  };

  /**
   * fengari is Lua 5.3 and Argo CD runs gopher-lua (5.1): the library functions 5.1 lacks are removed
   * before the check runs, and the syntax 5.2+ added is refused below, so a check that passes here
   * also loads in Argo CD.
   */
  const LUA51_ONLY =
    'utf8 = nil; table.unpack = nil; table.move = nil; math.type = nil; math.tointeger = nil; math.ult = nil; string.pack = nil; string.unpack = nil; string.packsize = nil; coroutine.isyieldable = nil';

  it('is Lua 5.1 as gopher-lua runs it: no goto, labels, integer division or bitwise operators', () => {
    // Strings and comments removed first: what is left is code.
    const code = script.replace(/--\[(=*)\[[\s\S]*?\]\1\]|--[^\n]*|"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'/g, '""');
    expect(code).not.toMatch(/\bgoto\b|::|\/\/|<<|>>|&|\||~(?!=)/);
    expect(code).not.toMatch(/\b(?:utf8|table\.unpack|table\.move|math\.type|math\.tointeger|string\.pack)\b/);
  });

  /** Runs the check as Argo CD does: `obj` is the resource, the returned table's status and message. */
  const health = (obj: Obj): { status: string; message: string } => {
    const L = lauxlib['luaL_newstate']!();
    lualib.luaL_openlibs(L);
    const code = `${LUA51_ONLY}\nobj = ${literal(obj)}\nlocal function check()\n${script}\nend\nlocal hs = check()\nreturn hs.status, hs.message`;
    if (lauxlib['luaL_loadstring']!(L, to_luastring(code)) !== lua.LUA_OK) throw new Error(to_jsstring(lua['lua_tostring']!(L, -1) as Uint8Array));
    if (lua['lua_pcall']!(L, 0, 2, 0) !== lua.LUA_OK) throw new Error(to_jsstring(lua['lua_tostring']!(L, -1) as Uint8Array));
    return { status: to_jsstring(lua['lua_tostring']!(L, -2) as Uint8Array), message: to_jsstring(lua['lua_tostring']!(L, -1) as Uint8Array) };
  };

  it.each([
    ['installing', 'Progressing'],
    ['available', 'Healthy'],
    ['upgrading', 'Progressing'],
    ['degraded', 'Degraded'],
    ['no status', 'Progressing'],
  ])('a KubeVirt CR %s is %s', (status, expected) => {
    expect(health(KUBEVIRT(STATUSES[status]!)).status).toBe(expected);
  });

  it('says why a degraded KubeVirt is degraded', () => {
    expect(health(KUBEVIRT(STATUSES['degraded']!)).message).toBe('virt-handler is crash-looping');
  });

  it('both Applications retry a failed automated sync with backoff', () => {
    for (const app of docs('argocd/applications.yaml').filter((d) => d['kind'] === 'Application')) {
      expect((app['spec'] as Obj)['syncPolicy']).toMatchObject({
        retry: { limit: expect.any(Number), backoff: { duration: expect.any(String), factor: expect.any(Number) } },
      });
    }
  });
});

describe('what Flux does before applying', () => {
  const CLUSTER_SCOPED = new Set(['Namespace', 'CustomResourceDefinition', 'VirtualMachineClusterInstancetype', 'VirtualMachineClusterPreference']);
  const flux = readdirSync(path.join(REPO, 'examples', 'flux')).flatMap((f) => docs(`flux/${f}`));
  const ours = flux.filter((d) => d['kind'] === 'Kustomization' && ((d['spec'] as Obj)['sourceRef'] as Obj)['name'] === 'itgen-catalog');

  it.each(ours.map((k) => [(k['metadata'] as Obj)['name'] as string, k] as const))(
    'Kustomization %s: every namespaced object gets a namespace, and that namespace is created',
    (_name, k) => {
      const spec = k['spec'] as Obj;
      const built = spawnSync('kubectl', ['kustomize', path.join(REPO, String(spec['path']))], { encoding: 'utf8', maxBuffer: 1 << 26 });
      expect(built.status).toBe(0);
      const objects = parseAllDocuments(built.stdout).map((d) => d.toJS() as Obj);
      const target = spec['targetNamespace'] as string | undefined;
      const missing = objects
        .filter((o) => !CLUSTER_SCOPED.has(String(o['kind'])))
        .filter((o) => ((o['metadata'] as Obj)['namespace'] ?? target) === undefined)
        .map((o) => `${String(o['kind'])}/${String((o['metadata'] as Obj)['name'])}`);
      expect(missing).toEqual([]);
      if (target !== undefined) expect(flux.some((d) => d['kind'] === 'Namespace' && (d['metadata'] as Obj)['name'] === target)).toBe(true);
    },
  );

  it('only output/ of the catalog repository triggers a reconcile', () => {
    const repo = flux.find((d) => d['kind'] === 'GitRepository' && (d['metadata'] as Obj)['name'] === 'itgen-catalog')!;
    expect(String((repo['spec'] as Obj)['ignore'])).toContain('!/output/');
  });
});

describe('every example object against its upstream CRD (test/reference/gitops-crds)', () => {
  const CRDS = path.join(REPO, 'test', 'reference', 'gitops-crds');
  /** The CRD's schema made strict: objects with properties accept no others, unless the CRD preserves unknown fields. */
  const strict = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(strict);
    if (node === null || typeof node !== 'object') return node;
    const out: Obj = {};
    for (const [k, v] of Object.entries(node as Obj)) if (!k.startsWith('x-kubernetes-')) out[k] = strict(v);
    const n = node as Obj;
    if (n['properties'] !== undefined && n['additionalProperties'] === undefined && n['x-kubernetes-preserve-unknown-fields'] !== true)
      out['additionalProperties'] = false;
    return out;
  };
  const validators = new Map<string, (o: unknown) => boolean>();
  const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
  for (const f of readdirSync(CRDS)) {
    const crd = parseAllDocuments(readFileSync(path.join(CRDS, f), 'utf8'))[0]!.toJS() as {
      spec: { group: string; names: { kind: string }; versions: { name: string; served: boolean; schema: { openAPIV3Schema: unknown } }[] };
    };
    for (const v of crd.spec.versions.filter((x) => x.served)) {
      const schema = strict(v.schema.openAPIV3Schema) as Obj;
      // metadata is the API server's, typed loosely by every CRD.
      validators.set(
        `${crd.spec.group}/${v.name}/${crd.spec.names.kind}`,
        ajv.compile({ ...schema, properties: { ...(schema['properties'] as Obj), metadata: { type: 'object' } } }) as (o: unknown) => boolean,
      );
    }
  }
  const objects = ['argocd/applications.yaml', ...readdirSync(path.join(REPO, 'examples', 'flux')).map((f) => `flux/${f}`)].flatMap((f) =>
    docs(f).map((d) => [f, d] as const),
  );
  const custom = objects.filter(([, d]) => String(d['apiVersion']).includes('.'));

  it.each(custom.map(([f, d]) => [`${f} ${String(d['kind'])}/${String((d['metadata'] as Obj)['name'])}`, d] as const))('%s', (_name, d) => {
    const validate = validators.get(`${String(d['apiVersion'])}/${String(d['kind'])}`);
    expect(validate).toBeDefined();
    const ok = validate!(d);
    expect([ok, (validate as unknown as { errors?: unknown }).errors ?? null]).toEqual([true, null]);
  });

  it('the strict schemas refuse a misspelt field', () => {
    const k = docs('flux/kustomizations.yaml').find((d) => d['kind'] === 'Kustomization')!;
    const broken = { ...k, spec: { ...(k['spec'] as Obj), pruen: true } };
    expect(validators.get('kustomize.toolkit.fluxcd.io/v1/Kustomization')!(broken)).toBe(false);
  });
});

describe('itgen validate reads the GitOps objects of the project', () => {
  it('IT5011: a Flux Kustomization or Argo CD Application that syncs namespaced objects without a namespace', async () => {
    const { run } = await import('../src/cli/main');
    const { scratchProject, removeDir } = await import('./helpers');
    const catalog = `kind: Catalog\nname: t\n---\nkind: SizeLadder\nname: s\nsizes: [{name: small, cpu: 1}]\n---\nkind: Family\nname: c\nversion: 1\ndisplayName: C\ndescription: C\nclass: compute\nmemoryPerCPU: 2Gi\n---\nkind: Preference\nname: mylinux\ndisplayName: My Linux\n`;
    const flux = (extra: string): string =>
      `apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: it, namespace: flux-system}\nspec:\n  interval: 10m\n  sourceRef: {kind: GitRepository, name: repo}\n  path: ./output/t\n  prune: true\n${extra}`;
    const argo =
      'apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {name: it, namespace: argocd}\nspec:\n  project: default\n  source: {repoURL: "https://git.example.com/x.git", path: output/t}\n  destination: {server: "https://kubernetes.default.svc"}\n';
    const outcome = (files: Record<string, string>): string => {
      const dir = scratchProject({
        'generators/t.yaml': 'catalog: ../catalog\noutput: ../output/t\nvendor: kubevirt.io\n',
        'catalog/c.yaml': catalog,
        ...files,
      });
      try {
        let text = '';
        run(['validate'], { out: (s) => (text += s), err: (s) => (text += `${s}\n`), cwd: dir, color: false });
        return text;
      } finally {
        removeDir(dir);
      }
    };
    expect(outcome({ 'clusters/prod/it.yaml': flux('') })).toContain(
      'clusters/prod/it.yaml:7:9 warning IT5011 Flux Kustomization `it` syncs output/t, whose 2 namespaced objects have no namespace, and gives them none',
    );
    expect(outcome({ 'clusters/prod/it.yaml': flux('  targetNamespace: vms\n') })).not.toContain('IT5011');
    expect(outcome({ 'apps/it.yaml': argo })).toContain('apps/it.yaml:6:60 warning IT5011 Argo CD Application `it` syncs output/t');
    // One kind directory of the base: only its own objects count; a sibling path is not the base.
    const only = (dir: string): string => outcome({ 'clusters/prod/it.yaml': flux('').replace('./output/t', dir) });
    expect(only('./output/t/VirtualMachineInstancetypes')).toContain(
      'warning IT5011 Flux Kustomization `it` syncs output/t/VirtualMachineInstancetypes, whose 1 namespaced object has no namespace',
    );
    expect(only('./output/t/VirtualMachineClusterInstancetypes')).not.toContain('IT5011');
    expect(only('./output/tt')).not.toContain('IT5011');
  });
});
