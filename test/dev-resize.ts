import { replayResize } from './resize-corpus';
const r = replayResize(process.argv[2] ?? '/work/rcz');
console.log(`${r.filter((x) => x.why.length === 0).length}/${r.length} agree`);
const classes = new Map<string, { n: number; ex: string[] }>();
for (const x of r) for (const w of x.why) { const k = w.replace(/\d+/g, 'N').slice(0, 110); const e = classes.get(k) ?? { n: 0, ex: [] }; e.n++; if (e.ex.length < 2) e.ex.push(`${x.id} ${w.slice(0, 300)}`); classes.set(k, e); }
for (const [k, v] of [...classes].sort((a, b) => b[1].n - a[1].n).slice(0, 25)) console.log(v.n, k, '\n   ', v.ex.join('\n    '));
