/**
 * The catalog explorer's script, run in the browser (type-checked with the DOM's types by
 * tsconfig.explorer.json, linted as the rest). tools/build-explorer.mjs bundles it with the filter it
 * shares with `itgen select` (site/filter.ts) into site/explorer-script.ts, the text site/page.ts
 * inlines under the page's Content-Security-Policy hash; a test holds that text to this source.
 *
 * Every element is built with textContent: catalog text (a pull request can put HTML in a display
 * name) never reaches innerHTML. The state lives in the URL's hash, so a link shares a view.
 *
 * Over 400 lines: one page's script, its columns, state, rendering and handlers, which share the
 * page's state as one closure (`runExplorer`); split, each part would take that state as arguments.
 */
import type { SiteData, SiteInstancetype, SitePreference } from './types';
import { admittedCount, pairOf, rowsCsv, selectInstancetypes, type SelectFilter } from './filter';

type Column = {
  readonly key: string;
  readonly title: string;
  /** The value a sort compares. */
  readonly value: (r: SiteInstancetype) => string | number;
  readonly numeric?: boolean;
  /** The text shown, when not the value's. */
  readonly text?: (r: SiteInstancetype) => string;
};

const GIB = 1073741824;
const gib = (b: number): string => `${Math.round((b / GIB) * 100) / 100}Gi`;

const COLUMNS: readonly Column[] = [
  { key: 'name', title: 'Name', value: (r) => r.name },
  { key: 'cpu', title: 'vCPUs', value: (r) => r.cpu, numeric: true },
  { key: 'memory', title: 'Memory', value: (r) => r.memoryBytes, numeric: true, text: (r) => r.memory },
  { key: 'mpc', title: 'Memory per vCPU', value: (r) => r.memoryPerCpuBytes, numeric: true, text: (r) => gib(r.memoryPerCpuBytes) },
  { key: 'family', title: 'Family', value: (r) => r.family },
  { key: 'class', title: 'Class', value: (r) => r.class },
  { key: 'hugepages', title: 'Hugepages', value: (r) => r.hugepages },
  { key: 'dedicated', title: 'Dedicated CPUs', value: (r) => (r.dedicatedCpu ? 'yes' : '') },
  { key: 'gpus', title: 'GPUs and devices', value: (r) => [...r.gpus, ...r.hostDevices].join(' ') },
  { key: 'arch', title: 'Architecture', value: (r) => (r.architectures.length > 0 ? r.architectures.join(' ') : 'any') },
  { key: 'scope', title: 'Scope', value: (r) => r.scopes.join(' ') },
  {
    key: 'pod',
    title: 'Pod requests',
    value: (r) => r.podMemory,
    text: (r) =>
      (r.podCpu ? `cpu ${r.podCpu}, ` : '') +
      (r.podMemory ? `memory ${r.podMemory}` : '') +
      Object.keys(r.podOther)
        .map((k) => `, ${k} ${r.podOther[k]}`)
        .join(''),
  },
  { key: 'labels', title: 'Node labels', value: (r) => r.nodeLabels.join(' ') },
  { key: 'deprecated', title: 'Deprecated', value: (r) => (r.deprecated ? (r.replacement ? `use ${r.replacement}` : 'yes') : '') },
  { key: 'display', title: 'Display name', value: (r) => r.displayName },
  { key: 'generator', title: 'Generator', value: (r) => r.generator },
];
const DEFAULT_COLUMNS = ['name', 'cpu', 'memory', 'mpc', 'class', 'hugepages', 'dedicated', 'gpus', 'arch', 'pod', 'deprecated'];
const shown = (c: Column, r: SiteInstancetype): string => String(c.text ? c.text(r) : c.value(r));
const PAGE = 200;

/** The page's state: what the filter fields hold (as typed), the sort, the columns, the compared names. */
interface State {
  q: string;
  cpu: [string, string];
  mem: [string, string];
  arch: string;
  fam: string;
  cls: string;
  ded: boolean;
  hp: string;
  gpu: string;
  pref: string;
  dep: boolean;
  sort: string;
  dir: 1 | -1;
  cols: string[];
  cmp: string[];
  limit: number;
}
type TextField = 'q' | 'arch' | 'fam' | 'cls' | 'hp' | 'gpu' | 'pref';

function el(tag: string, attrs?: Readonly<Record<string, string>> | null, text?: string | number): HTMLElement {
  const e = document.createElement(tag);
  if (attrs) for (const k of Object.keys(attrs)) e.setAttribute(k, attrs[k]!);
  if (text !== undefined) e.textContent = String(text);
  return e;
}
function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  return document.getElementById(id) as T;
}
const inputOf = (id: string): HTMLInputElement => byId<HTMLInputElement>(id);

/** A typed number, or undefined for an empty or unreadable field. */
const num = (v: string): number | undefined => (v === '' || isNaN(Number(v)) ? undefined : Number(v));

/** The fields as the shared filter: vCPU counts, memory in GiB as bytes. */
export function filterOfState(s: State): SelectFilter {
  const [mmin, mmax] = [num(s.mem[0]), num(s.mem[1])];
  return {
    cpu: [num(s.cpu[0]), num(s.cpu[1])],
    memory: [mmin === undefined ? undefined : mmin * GIB, mmax === undefined ? undefined : mmax * GIB],
    ...(s.arch ? { arch: s.arch } : {}),
    ...(s.ded ? { dedicated: true } : {}),
    ...(s.hp ? { hugepages: s.hp } : {}),
    ...(s.gpu ? { gpu: s.gpu } : {}),
    ...(s.pref ? { preference: s.pref } : {}),
    families: s.fam ? [s.fam] : [],
    classes: s.cls ? [s.cls] : [],
    text: s.q,
    ...(s.dep ? { deprecated: true } : {}),
  };
}

function snippet(r: SiteInstancetype, pref: string): string {
  return (
    [
      'apiVersion: kubevirt.io/v1',
      'kind: VirtualMachine',
      'metadata:',
      '  name: my-vm',
      'spec:',
      '  runStrategy: Always',
      '  instancetype:',
      `    name: ${JSON.stringify(r.name)}`,
      ...(r.scopes.includes('cluster') ? [] : ['    kind: VirtualMachineInstancetype']),
      ...(pref ? ['  preference:', `    name: ${JSON.stringify(pref)}`] : []),
      '  template:',
      '    spec:',
      '      domain:',
      '        devices: {}',
      '      volumes:',
      '        - name: rootdisk',
      '          containerDisk:',
      '            image: quay.io/containerdisks/fedora:latest',
    ].join('\n') + '\n'
  );
}

function download(name: string, type: string, text: string): void {
  const a = el('a', { download: name }) as HTMLAnchorElement;
  a.href = URL.createObjectURL(new Blob([text], { type }));
  document.body.appendChild(a);
  a.click();
  setTimeout(() => {
    URL.revokeObjectURL(a.href);
    a.remove();
  }, 0);
}

/** Pairs decided when the page opens, at most: beyond, a preference's count is shown when it is opened. */
const COUNT_IN_SUMMARY = 200_000;

/** The distinct values, sorted (a Set: a catalog's device names can number in the tens of thousands). */
const uniq = (a: readonly string[]): string[] => [...new Set(a)].filter((v) => v !== '').sort();

/**
 * Runs the page: reads its data, binds the fields, renders, and marks the document ready.
 *
 * Over 80 lines: the page's renderers and handlers are closures over its one state and data.
 */
export function runExplorer(): void {
  const D = JSON.parse(byId('itgen-data').textContent ?? '{}') as SiteData;
  const IT = D.instancetypes;
  const PREFS = D.preferences;
  byId('title').textContent = D.title;
  byId('subtitle').textContent =
    'Generated by itgen. Every figure is what KubeVirt does with these objects: pod requests under its default configuration, preferences paired as its admission does.';
  document.title = D.title;
  const S: State = {
    q: '',
    cpu: ['', ''],
    mem: ['', ''],
    arch: '',
    fam: '',
    cls: '',
    ded: false,
    hp: '',
    gpu: '',
    pref: '',
    dep: false,
    sort: '',
    dir: 1,
    cols: [...DEFAULT_COLUMNS],
    cmp: [],
    limit: PAGE,
  };
  let current: SiteInstancetype[] = [];
  const say = (t: string): void => {
    byId('status').textContent = t;
  };
  const admits = (p: SitePreference, r: SiteInstancetype): boolean => pairOf(D, p, r)?.admitted === true;

  function readHash(): void {
    const p = new URLSearchParams(location.hash.slice(1));
    const range = (v: string | null): [string, string] => {
      if (!v) return ['', ''];
      const a = v.split('..');
      return a.length === 2 ? [a[0]!, a[1]!] : [a[0]!, a[0]!];
    };
    S.q = p.get('q') ?? '';
    S.cpu = range(p.get('cpu'));
    S.mem = range(p.get('mem'));
    S.arch = p.get('arch') ?? '';
    S.fam = p.get('fam') ?? '';
    S.cls = p.get('cls') ?? '';
    S.ded = p.get('ded') === '1';
    S.hp = p.get('hp') ?? '';
    S.gpu = p.get('gpu') ?? '';
    S.pref = p.get('pref') ?? '';
    S.dep = p.get('dep') === '1';
    S.sort = p.get('sort') ?? '';
    S.dir = p.get('dir') === 'desc' ? -1 : 1;
    const c = p.get('cols');
    if (c) {
      const known = COLUMNS.map((x) => x.key);
      S.cols = c.split(',').filter((x) => known.includes(x));
      if (!S.cols.includes('name')) S.cols.unshift('name');
    } else S.cols = [...DEFAULT_COLUMNS];
    const m = p.get('cmp');
    S.cmp = m
      ? m
          .split(',')
          .filter((n) => IT.some((r) => r.name === n))
          .slice(0, 4)
      : [];
  }

  function writeHash(): void {
    const p = new URLSearchParams();
    const range = (r: [string, string]): string => (r[0] === '' && r[1] === '' ? '' : `${r[0]}..${r[1]}`);
    if (S.q) p.set('q', S.q);
    if (range(S.cpu)) p.set('cpu', range(S.cpu));
    if (range(S.mem)) p.set('mem', range(S.mem));
    for (const k of ['arch', 'fam', 'cls', 'hp', 'gpu', 'pref'] as const) if (S[k]) p.set(k, S[k]);
    if (S.ded) p.set('ded', '1');
    if (S.dep) p.set('dep', '1');
    if (S.sort) {
      p.set('sort', S.sort);
      if (S.dir < 0) p.set('dir', 'desc');
    }
    if (S.cols.join(',') !== DEFAULT_COLUMNS.join(',')) p.set('cols', S.cols.join(','));
    if (S.cmp.length > 0) p.set('cmp', S.cmp.join(','));
    const h = p.toString();
    history.replaceState(null, '', h ? `#${h}` : location.pathname + location.search);
  }

  function filtered(): SiteInstancetype[] {
    const rows = selectInstancetypes(D, filterOfState(S));
    const col = COLUMNS.find((c) => c.key === S.sort);
    if (!col) return rows;
    const dir = S.dir;
    return rows
      .map((r, i) => ({ key: col.value(r), i, r }))
      .sort((a, b) => (a.key < b.key ? -dir : a.key > b.key ? dir : a.i - b.i))
      .map((x) => x.r);
  }

  function renderTable(): void {
    current = filtered();
    const cols = COLUMNS.filter((c) => S.cols.includes(c.key));
    const thead = byId('thead');
    thead.textContent = '';
    const tr = el('tr');
    tr.appendChild(el('th', { scope: 'col' }, 'Compare'));
    for (const c of cols) {
      const th = el('th', { scope: 'col', 'aria-sort': S.sort === c.key ? (S.dir > 0 ? 'ascending' : 'descending') : 'none' });
      if (c.numeric) th.className = 'num';
      const b = el('button', { type: 'button', 'data-col': c.key }, c.title + (S.sort === c.key ? (S.dir > 0 ? ' \u25B2' : ' \u25BC') : ''));
      b.addEventListener('click', () => {
        if (S.sort === c.key) S.dir = S.dir > 0 ? -1 : 1;
        else {
          S.sort = c.key;
          S.dir = 1;
        }
        update();
      });
      th.appendChild(b);
      tr.appendChild(th);
    }
    thead.appendChild(tr);
    const tbody = byId('tbody');
    tbody.textContent = '';
    const frag = document.createDocumentFragment();
    for (const r of current.slice(0, S.limit)) {
      const row = el('tr', { 'data-name': r.name });
      if (r.deprecated) row.className = 'dep';
      const td = el('td');
      const cb = el('input', { type: 'checkbox', 'aria-label': `compare ${r.name}` }) as HTMLInputElement;
      cb.checked = S.cmp.includes(r.name);
      cb.addEventListener('change', () => {
        if (cb.checked) {
          if (S.cmp.length >= 4) {
            cb.checked = false;
            say('At most 4 instance types can be compared.');
            return;
          }
          S.cmp.push(r.name);
        } else S.cmp = S.cmp.filter((n) => n !== r.name);
        renderCompare();
        writeHash();
      });
      td.appendChild(cb);
      row.appendChild(td);
      for (const c of cols) {
        const cell = el('td');
        if (c.numeric) cell.className = 'num';
        if (c.key === 'name') {
          const b = el('button', { type: 'button', 'aria-label': `details of ${r.name}` }, r.name);
          b.addEventListener('click', () => showDetails(r));
          cell.appendChild(b);
        } else cell.textContent = shown(c, r);
        row.appendChild(cell);
      }
      frag.appendChild(row);
    }
    tbody.appendChild(frag);
    const more = byId('more');
    more.hidden = current.length <= S.limit;
    more.textContent = `Show more (${current.length - S.limit} left)`;
    say(`${current.length} of ${IT.length} instance types`);
  }

  function renderCompare(): void {
    const box = byId('compare');
    box.textContent = '';
    const rows = S.cmp.map((n) => IT.find((r) => r.name === n)).filter((r): r is SiteInstancetype => r !== undefined);
    if (rows.length < 2) {
      box.appendChild(el('p', { class: 'mute' }, 'Tick 2 to 4 instance types in the table to compare them side by side.'));
      return;
    }
    const t = el('table');
    t.appendChild(el('caption', null, `Comparison of ${rows.map((r) => r.name).join(', ')}`));
    const h = el('tr');
    h.appendChild(el('th', { scope: 'col' }, 'Attribute'));
    for (const r of rows) h.appendChild(el('th', { scope: 'col' }, r.name));
    t.appendChild(h);
    for (const c of COLUMNS) {
      if (c.key === 'name') continue;
      const vals = rows.map((r) => shown(c, r));
      const differs = vals.some((v) => v !== vals[0]);
      const tr = el('tr');
      tr.appendChild(el('th', { scope: 'row' }, c.title));
      for (const v of vals) {
        const td = el('td', differs ? { class: 'diff' } : null, v);
        if (differs) td.setAttribute('aria-description', 'differs');
        tr.appendChild(td);
      }
      t.appendChild(tr);
    }
    box.appendChild(t);
  }

  function showDetails(r: SiteInstancetype): void {
    const box = byId('details');
    box.textContent = '';
    box.hidden = false;
    box.appendChild(el('h2', null, `${r.name} \u2014 ${r.displayName}`));
    box.appendChild(el('p', null, r.description));
    const dl = el('dl');
    for (const c of COLUMNS) {
      dl.appendChild(el('dt', null, c.title));
      dl.appendChild(el('dd', null, shown(c, r) || '\u2014'));
    }
    box.appendChild(dl);
    if (r.refused) box.appendChild(el('p', { class: 'bad' }, `KubeVirt would not start a VM of it: ${r.refused}`));
    const ok = PREFS.filter((p) => admits(p, r));
    const lab = el('label', null, 'Preference for the VM snippet');
    const sel = el('select', { id: 'snippet-pref' }) as HTMLSelectElement;
    sel.appendChild(el('option', { value: '' }, '(none)'));
    for (const p of ok) sel.appendChild(el('option', { value: p.name }, p.name));
    if (S.pref && ok.some((p) => p.name === S.pref)) sel.value = S.pref;
    lab.appendChild(sel);
    box.appendChild(lab);
    const pre = el('pre', { id: 'snippet', 'aria-label': 'VirtualMachine snippet' }, snippet(r, sel.value));
    box.appendChild(pre);
    sel.addEventListener('change', () => {
      pre.textContent = snippet(r, sel.value);
    });
    const copy = el('button', { type: 'button' }, 'Copy the snippet');
    copy.addEventListener('click', () => {
      if ('clipboard' in navigator)
        navigator.clipboard.writeText(pre.textContent ?? '').then(
          () => say(`Copied the snippet of ${r.name}`),
          () => say('Copying is not allowed here: select the text.'),
        );
    });
    box.appendChild(copy);
    box.scrollIntoView();
  }

  function renderPreferences(): void {
    const box = byId('preferences');
    box.textContent = '';
    const counts = D.pairs.length * D.pairSpecs.length <= COUNT_IN_SUMMARY;
    for (const p of PREFS) {
      const d = el('details', { 'data-preference': p.name }) as HTMLDetailsElement;
      // The count in the summary where the pairs to decide are few; else in the details, when opened.
      const n = counts ? admittedCount(D, p) : undefined;
      d.appendChild(
        el(
          'summary',
          null,
          `${p.name} \u2014 ${p.displayName} (${p.os || 'any OS'}, ${p.architecture || 'default architecture'}${n === undefined ? '' : `; admitted with ${n} instance type${n === 1 ? '' : 's'}`}${p.deprecated ? '; deprecated' : ''})`,
        ),
      );
      let filled = false;
      const fillPairs = (): void => {
        if (filled) return;
        filled = true;
        const req: string[] = [];
        if (p.requiredCpu) req.push(`${p.requiredCpu} vCPUs`);
        if (p.requiredMemory) req.push(`${p.requiredMemory} of memory`);
        d.appendChild(el('p', null, req.length > 0 ? `Requires at least ${req.join(' and ')}.` : 'No requirements.'));
        const ok: string[] = [];
        const by = new Map<string, string[]>();
        for (const r of IT) {
          const o = pairOf(D, p, r);
          if (o?.admitted === true) ok.push(r.name);
          else if (o !== undefined) {
            const reason = o.reason ?? 'refused';
            const names = by.get(reason);
            if (names) names.push(r.name);
            else by.set(reason, [r.name]);
          }
        }
        d.appendChild(el('p', null, `Admitted with ${ok.length} instance type${ok.length === 1 ? '' : 's'}: ${ok.join(', ') || 'none'}`));
        if (by.size > 0) {
          const ul = el('ul', { 'aria-label': 'refused pairs' });
          for (const [reason, names] of by) ul.appendChild(el('li', null, `${names.join(', ')}: ${reason}`));
          d.appendChild(el('p', null, 'Refused by KubeVirt:'));
          d.appendChild(ul);
        }
      };
      d.addEventListener('toggle', () => {
        if (d.open) fillPairs();
      });
      box.appendChild(d);
    }
  }

  function renderHistory(): void {
    const box = byId('history');
    box.textContent = '';
    if (D.history.length === 0) {
      box.appendChild(el('p', { class: 'mute' }, 'No release lock: no releases recorded yet.'));
      return;
    }
    for (const h of D.history)
      for (const s of h.sections) {
        const d = el('details');
        d.appendChild(el('summary', null, `${h.generator} ${s.version}`));
        for (const [key, title] of [
          ['added', 'Added'],
          ['deprecated', 'Deprecated'],
          ['removed', 'Removed'],
          ['changed', 'Changed'],
        ] as const) {
          const list = s[key];
          if (list && list.length > 0) d.appendChild(el('p', null, `${title}: ${list.map((e) => e.name + (e.detail ? ` (${e.detail})` : '')).join('; ')}`));
        }
        box.appendChild(d);
      }
  }

  const options = (id: string, values: readonly string[]): void => {
    const s = byId(id);
    for (const v of values) s.appendChild(el('option', { value: v }, v));
  };

  function bind(): void {
    options('f-arch', uniq(['amd64', 'arm64', 's390x', ...IT.flatMap((r) => r.architectures)]));
    options('f-fam', uniq(IT.map((r) => r.family)));
    options('f-cls', uniq(IT.map((r) => r.class)));
    options('f-hp', ['any', ...uniq(IT.map((r) => r.hugepages))]);
    options('f-gpu', uniq(IT.flatMap((r) => [...r.gpus, ...r.hostDevices])));
    options('f-pref', uniq(PREFS.map((p) => p.name)));
    const cols = byId('cols');
    for (const c of COLUMNS) {
      if (c.key === 'name') continue;
      const l = el('label', { class: 'check' });
      const cb = el('input', { type: 'checkbox', 'data-col': c.key }) as HTMLInputElement;
      l.appendChild(cb);
      l.appendChild(document.createTextNode(c.title));
      cols.appendChild(l);
      cb.addEventListener('change', () => {
        S.cols = ['name', ...COLUMNS.map((x) => x.key).filter((k) => k !== 'name' && (k === c.key ? cb.checked : S.cols.includes(k)))];
        update();
      });
    }
    const fields: Readonly<Record<string, TextField>> = {
      'f-q': 'q',
      'f-arch': 'arch',
      'f-fam': 'fam',
      'f-cls': 'cls',
      'f-hp': 'hp',
      'f-gpu': 'gpu',
      'f-pref': 'pref',
    };
    for (const id of Object.keys(fields))
      byId(id).addEventListener('input', () => {
        S[fields[id]!] = inputOf(id).value;
        S.limit = PAGE;
        update();
      });
    for (const [id, key, end] of [
      ['f-cpu-min', 'cpu', 0],
      ['f-cpu-max', 'cpu', 1],
      ['f-mem-min', 'mem', 0],
      ['f-mem-max', 'mem', 1],
    ] as const)
      byId(id).addEventListener('input', () => {
        S[key][end] = inputOf(id).value;
        S.limit = PAGE;
        update();
      });
    byId('f-ded').addEventListener('change', () => {
      S.ded = inputOf('f-ded').checked;
      update();
    });
    byId('f-dep').addEventListener('change', () => {
      S.dep = inputOf('f-dep').checked;
      update();
    });
    byId('filters').addEventListener('submit', (e) => e.preventDefault());
    byId('more').addEventListener('click', () => {
      S.limit += PAGE;
      renderTable();
    });
    byId('reset').addEventListener('click', () => {
      location.hash = '';
      readHash();
      fill();
      update();
    });
    byId('csv').addEventListener('click', () => download('instancetypes.csv', 'text/csv', rowsCsv(current, '\r\n')));
    byId('json').addEventListener('click', () => download('instancetypes.json', 'application/json', JSON.stringify(current, null, 2) + '\n'));
    window.addEventListener('hashchange', () => {
      readHash();
      fill();
      renderTable();
      renderCompare();
    });
  }

  function fill(): void {
    inputOf('f-q').value = S.q;
    inputOf('f-cpu-min').value = S.cpu[0];
    inputOf('f-cpu-max').value = S.cpu[1];
    inputOf('f-mem-min').value = S.mem[0];
    inputOf('f-mem-max').value = S.mem[1];
    for (const k of ['arch', 'fam', 'cls', 'hp', 'gpu', 'pref'] as const) inputOf(`f-${k}`).value = S[k];
    inputOf('f-ded').checked = S.ded;
    inputOf('f-dep').checked = S.dep;
    for (const cb of Array.from(document.querySelectorAll<HTMLInputElement>('#cols input'))) cb.checked = S.cols.includes(cb.getAttribute('data-col') ?? '');
  }

  function update(): void {
    writeHash();
    renderTable();
    renderCompare();
  }

  readHash();
  bind();
  fill();
  renderTable();
  renderCompare();
  renderPreferences();
  renderHistory();
  document.documentElement.setAttribute('data-ready', '1');
}
