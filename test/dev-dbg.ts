import { readJsonLines } from './preview-corpus';
import { objectStore } from '../src/expand';
const cases = readJsonLines('/work/pcs/cases.jsonl.gz') as any[];
const c = cases.find((x) => x.id === 'p00021');
const s = objectStore(c.objects);
console.log(s.cluster, Object.keys(s));
