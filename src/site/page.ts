/**
 * The catalog explorer: one self-contained `index.html` (data, style and script inline; no request
 * to any host, so it works from file://, GitHub Pages or GitLab Pages) under a strict
 * Content-Security-Policy that allows exactly its own script and style by hash. The script builds
 * every element with textContent: catalog text (a pull request can put HTML in a display name)
 * never reaches innerHTML. The data is JSON in a non-executable script element, with `<` written
 * as `\u003c` so no text in it can close the element.
 */
import { createHash } from 'node:crypto';
import type { SiteData } from './data';

const CSS = `
:root{color-scheme:light dark;--fg:#1b1d21;--bg:#fff;--mute:#5f6670;--line:#d5d9de;--acc:#0b5cad;--hi:#fff3bf;--bad:#a4161a}
@media (prefers-color-scheme:dark){:root{--fg:#e8eaed;--bg:#16181b;--mute:#a3a9b1;--line:#3a3f45;--acc:#7cb8ff;--hi:#4a3f10;--bad:#ff8a8a}}
caption{text-align:left;padding:4px 8px}*{box-sizing:border-box}body{margin:0;font:15px/1.45 system-ui,sans-serif;color:var(--fg);background:var(--bg)}
header,main{padding:0 16px}h1{font-size:1.4rem;margin:12px 0 4px}h2{font-size:1.15rem;margin:20px 0 8px}
.mute{color:var(--mute)}a{color:var(--acc)}
fieldset{border:1px solid var(--line);border-radius:6px;margin:8px 0;padding:8px 10px;display:flex;flex-wrap:wrap;gap:8px 16px;align-items:end}
legend{font-weight:600}label{display:flex;flex-direction:column;font-size:.85rem;gap:2px}
label.check{flex-direction:row;align-items:center;gap:6px}
input,select,button{font:inherit;color:inherit;background:var(--bg);border:1px solid var(--line);border-radius:4px;padding:3px 6px}
input[type=number]{width:6.5em}input[type=search]{width:16em}
button{cursor:pointer}button:focus-visible,input:focus-visible,select:focus-visible,summary:focus-visible{outline:2px solid var(--acc);outline-offset:1px}
.wrap{overflow-x:auto;border:1px solid var(--line);border-radius:6px}
table{border-collapse:collapse;width:100%}th,td{padding:4px 8px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top;white-space:nowrap}
th button{border:0;padding:0;font-weight:600;background:none}td button{border:0;padding:0;background:none;color:var(--acc);text-decoration:underline}td.num,th.num{text-align:right}
tr.dep td{color:var(--mute)}td .tag{font-size:.8rem;border:1px solid var(--line);border-radius:3px;padding:0 4px;margin-right:4px}
.diff{background:var(--hi)}.bad{color:var(--bad)}
pre{background:rgba(127,127,127,.12);padding:8px;border-radius:6px;overflow-x:auto}
details{margin:4px 0}summary{cursor:pointer}
.cols label{flex-direction:row;gap:4px;align-items:center}
#status{margin:6px 0}
@media (max-width:640px){body{font-size:14px}fieldset{flex-direction:column;align-items:stretch}input[type=search]{width:100%}}
`;

/** The page's script: plain ES2017, no template literals, everything through textContent. */
const JS = `
(function(){
'use strict';
var D=JSON.parse(document.getElementById('itgen-data').textContent);
var IT=D.instancetypes, PREFS=D.preferences;
var COLS=[
 ['name','Name',function(r){return r.name;}],
 ['cpu','vCPUs',function(r){return r.cpu;},1],
 ['memory','Memory',function(r){return r.memoryBytes;},1,function(r){return r.memory;}],
 ['mpc','Memory per vCPU',function(r){return r.memoryPerCpuBytes;},1,function(r){return gib(r.memoryPerCpuBytes);}],
 ['family','Family',function(r){return r.family;}],
 ['class','Class',function(r){return r.class;}],
 ['hugepages','Hugepages',function(r){return r.hugepages;}],
 ['dedicated','Dedicated CPUs',function(r){return r.dedicatedCpu?'yes':'';}],
 ['gpus','GPUs and devices',function(r){return r.gpus.concat(r.hostDevices).join(' ');}],
 ['arch','Architecture',function(r){return r.architectures.length?r.architectures.join(' '):'any';}],
 ['scope','Scope',function(r){return r.scopes.join(' ');}],
 ['pod','Pod requests',function(r){return r.podMemory;},0,function(r){return (r.podCpu?'cpu '+r.podCpu+', ':'')+(r.podMemory?'memory '+r.podMemory:'')+Object.keys(r.podOther).map(function(k){return ', '+k+' '+r.podOther[k];}).join('');}],
 ['labels','Node labels',function(r){return r.nodeLabels.join(' ');}],
 ['deprecated','Deprecated',function(r){return r.deprecated?(r.replacement?'use '+r.replacement:'yes'):'';}],
 ['display','Display name',function(r){return r.displayName;}],
 ['generator','Generator',function(r){return r.generator;}]
];
var DEFAULT_COLS=['name','cpu','memory','mpc','class','hugepages','dedicated','gpus','arch','pod','deprecated'];
function cell(row,r){if(r.architectures.length&&r.architectures.indexOf(row.architecture)<0)return -2;var i=r.pairKey-row.base;return i>=0&&i<row.cells.length?row.cells[i]:-2;}
function gib(b){var g=b/1073741824;return (Math.round(g*100)/100)+'Gi';}
function el(tag,attrs,text){var e=document.createElement(tag);if(attrs)for(var k in attrs)if(Object.prototype.hasOwnProperty.call(attrs,k))e.setAttribute(k,attrs[k]);if(text!==undefined&&text!==null)e.textContent=String(text);return e;}
function $(id){return document.getElementById(id);}
var S={q:'',cpu:['',''],mem:['',''],arch:'',fam:'',cls:'',ded:false,hp:'',gpu:'',pref:'',dep:false,sort:'',dir:1,cols:DEFAULT_COLS.slice(),cmp:[],limit:200};
function readHash(){
 var p=new URLSearchParams(location.hash.slice(1));
 function range(v){if(!v)return['',''];var a=v.split('..');return a.length===2?a:[a[0],a[0]];}
 S.q=p.get('q')||'';S.cpu=range(p.get('cpu'));S.mem=range(p.get('mem'));S.arch=p.get('arch')||'';S.fam=p.get('fam')||'';S.cls=p.get('cls')||'';
 S.ded=p.get('ded')==='1';S.hp=p.get('hp')||'';S.gpu=p.get('gpu')||'';S.pref=p.get('pref')||'';S.dep=p.get('dep')==='1';
 S.sort=p.get('sort')||'';S.dir=p.get('dir')==='desc'?-1:1;
 var c=p.get('cols');if(c){var known=COLS.map(function(x){return x[0];});S.cols=c.split(',').filter(function(x){return known.indexOf(x)>=0;});if(S.cols.indexOf('name')<0)S.cols.unshift('name');}
 var m=p.get('cmp');S.cmp=m?m.split(',').filter(function(n){return IT.some(function(r){return r.name===n;});}).slice(0,4):[];
}
function writeHash(){
 var p=new URLSearchParams();
 function range(r){return r[0]===''&&r[1]===''?'':r[0]+'..'+r[1];}
 if(S.q)p.set('q',S.q);if(range(S.cpu))p.set('cpu',range(S.cpu));if(range(S.mem))p.set('mem',range(S.mem));
 if(S.arch)p.set('arch',S.arch);if(S.fam)p.set('fam',S.fam);if(S.cls)p.set('cls',S.cls);if(S.ded)p.set('ded','1');if(S.hp)p.set('hp',S.hp);
 if(S.gpu)p.set('gpu',S.gpu);if(S.pref)p.set('pref',S.pref);if(S.dep)p.set('dep','1');if(S.sort){p.set('sort',S.sort);if(S.dir<0)p.set('dir','desc');}
 if(S.cols.join(',')!==DEFAULT_COLS.join(','))p.set('cols',S.cols.join(','));if(S.cmp.length)p.set('cmp',S.cmp.join(','));
 var h=p.toString();history.replaceState(null,'',h?'#'+h:location.pathname+location.search);
}
function num(v){return v===''||isNaN(Number(v))?undefined:Number(v);}
function filtered(){
 var words=S.q.toLowerCase().split(/\\s+/).filter(function(w){return w;});
 var cmin=num(S.cpu[0]),cmax=num(S.cpu[1]),mmin=num(S.mem[0]),mmax=num(S.mem[1]);
 var pref=S.pref?PREFS.filter(function(p){return p.name===S.pref;}):null;
 var rows=IT.filter(function(r){
  if(!S.dep&&r.deprecated)return false;
  if(cmin!==undefined&&r.cpu<cmin)return false;if(cmax!==undefined&&r.cpu>cmax)return false;
  if(mmin!==undefined&&r.memoryBytes<mmin*1073741824)return false;if(mmax!==undefined&&r.memoryBytes>mmax*1073741824)return false;
  if(S.arch&&r.architectures.length&&r.architectures.indexOf(S.arch)<0)return false;
  if(S.ded&&!r.dedicatedCpu)return false;
  if(S.hp&&(S.hp==='any'?r.hugepages==='':r.hugepages!==S.hp))return false;
  if(S.gpu&&!r.gpus.concat(r.hostDevices).some(function(g){return g.toLowerCase()===S.gpu.toLowerCase();}))return false;
  if(S.fam&&S.fam!==r.family&&S.fam!==r.family.replace(/\\d+$/,''))return false;
  if(S.cls&&S.cls!==r.class)return false;
  if(pref&&!pref.some(function(p){return p.generator===r.generator&&cell(D.pairs[p.pairRow],r)===-1;}))return false;
  if(words.length){var hay=(r.name+' '+r.displayName+' '+r.description+' '+r.class).toLowerCase();if(!words.every(function(w){return hay.indexOf(w)>=0;}))return false;}
  return true;
 });
 if(S.sort){var col=COLS.filter(function(c){return c[0]===S.sort;})[0];if(col){var key=col[2],dir=S.dir;rows=rows.map(function(r,i){return[key(r),i,r];}).sort(function(a,b){return a[0]<b[0]?-dir:a[0]>b[0]?dir:a[1]-b[1];}).map(function(x){return x[2];});}}
 return rows;
}
var current=[];
function renderTable(){
 current=filtered();
 var cols=COLS.filter(function(c){return S.cols.indexOf(c[0])>=0;});
 var thead=$('thead');thead.textContent='';var tr=el('tr');
 tr.appendChild(el('th',{scope:'col'},'Compare'));
 cols.forEach(function(c){
  var th=el('th',{scope:'col','aria-sort':S.sort===c[0]?(S.dir>0?'ascending':'descending'):'none'});if(c[3])th.className='num';
  var b=el('button',{type:'button','data-col':c[0]},c[1]+(S.sort===c[0]?(S.dir>0?' \\u25B2':' \\u25BC'):''));
  b.addEventListener('click',function(){if(S.sort===c[0])S.dir=-S.dir;else{S.sort=c[0];S.dir=1;}update();});
  th.appendChild(b);tr.appendChild(th);
 });
 thead.appendChild(tr);
 var tbody=$('tbody');tbody.textContent='';
 var frag=document.createDocumentFragment();
 current.slice(0,S.limit).forEach(function(r){
  var row=el('tr',{'data-name':r.name});if(r.deprecated)row.className='dep';
  var td=el('td');var cb=el('input',{type:'checkbox','aria-label':'compare '+r.name});cb.checked=S.cmp.indexOf(r.name)>=0;
  cb.addEventListener('change',function(){if(cb.checked){if(S.cmp.length>=4){cb.checked=false;say('At most 4 instance types can be compared.');return;}S.cmp.push(r.name);}else S.cmp=S.cmp.filter(function(n){return n!==r.name;});renderCompare();writeHash();});
  td.appendChild(cb);row.appendChild(td);
  cols.forEach(function(c){
   var cell=el('td');if(c[3])cell.className='num';
   if(c[0]==='name'){var b=el('button',{type:'button','aria-label':'details of '+r.name},r.name);b.addEventListener('click',function(){showDetails(r);});cell.appendChild(b);}
   else cell.textContent=String(c[4]?c[4](r):c[2](r));
   row.appendChild(cell);
  });
  frag.appendChild(row);
 });
 tbody.appendChild(frag);
 var more=$('more');more.hidden=current.length<=S.limit;more.textContent='Show more ('+(current.length-S.limit)+' left)';
 say(current.length+' of '+IT.length+' instance types');
}
function say(t){$('status').textContent=t;}
function renderCompare(){
 var box=$('compare');box.textContent='';
 var rows=S.cmp.map(function(n){return IT.filter(function(r){return r.name===n;})[0];}).filter(Boolean);
 if(rows.length<2){box.appendChild(el('p',{'class':'mute'},'Tick 2 to 4 instance types in the table to compare them side by side.'));return;}
 var t=el('table');var cap=el('caption',null,'Comparison of '+rows.map(function(r){return r.name;}).join(', '));t.appendChild(cap);
 var h=el('tr');h.appendChild(el('th',{scope:'col'},'Attribute'));rows.forEach(function(r){h.appendChild(el('th',{scope:'col'},r.name));});t.appendChild(h);
 COLS.filter(function(c){return c[0]!=='name';}).forEach(function(c){
  var vals=rows.map(function(r){return String(c[4]?c[4](r):c[2](r));});var differs=vals.some(function(v){return v!==vals[0];});
  var tr=el('tr');tr.appendChild(el('th',{scope:'row'},c[1]));
  vals.forEach(function(v){var td=el('td',differs?{'class':'diff'}:null,v);if(differs)td.setAttribute('aria-description','differs');tr.appendChild(td);});
  t.appendChild(tr);
 });
 box.appendChild(t);
}
function snippet(r,pref){
 return ['apiVersion: kubevirt.io/v1','kind: VirtualMachine','metadata:','  name: my-vm','spec:','  runStrategy: Always','  instancetype:','    name: '+JSON.stringify(r.name)].concat(r.scopes.indexOf('cluster')<0?['    kind: VirtualMachineInstancetype']:[])
 .concat(pref?['  preference:','    name: '+JSON.stringify(pref)]:[])
 .concat(['  template:','    spec:','      domain:','        devices: {}','      volumes:','        - name: rootdisk','          containerDisk:','            image: quay.io/containerdisks/fedora:latest']).join('\\n')+'\\n';
}
function showDetails(r){
 var box=$('details');box.textContent='';box.hidden=false;
 box.appendChild(el('h2',null,r.name+' \\u2014 '+r.displayName));
 box.appendChild(el('p',null,r.description));
 var dl=el('dl');COLS.forEach(function(c){dl.appendChild(el('dt',null,c[1]));dl.appendChild(el('dd',null,String(c[4]?c[4](r):c[2](r))||'\\u2014'));});box.appendChild(dl);
 if(r.refused)box.appendChild(el('p',{'class':'bad'},'KubeVirt would not start a VM of it: '+r.refused));
 var ok=PREFS.filter(function(p){return p.generator===r.generator&&cell(D.pairs[p.pairRow],r)===-1;});
 var lab=el('label',null,'Preference for the VM snippet');var sel=el('select',{id:'snippet-pref'});sel.appendChild(el('option',{value:''},'(none)'));
 ok.forEach(function(p){var o=el('option',{value:p.name},p.name);sel.appendChild(o);});if(S.pref&&ok.some(function(p){return p.name===S.pref;}))sel.value=S.pref;lab.appendChild(sel);box.appendChild(lab);
 var pre=el('pre',{id:'snippet','aria-label':'VirtualMachine snippet'},snippet(r,sel.value));box.appendChild(pre);
 sel.addEventListener('change',function(){pre.textContent=snippet(r,sel.value);});
 var copy=el('button',{type:'button'},'Copy the snippet');copy.addEventListener('click',function(){if(navigator.clipboard)navigator.clipboard.writeText(pre.textContent).then(function(){say('Copied the snippet of '+r.name);},function(){say('Copying is not allowed here: select the text.');});});box.appendChild(copy);
 box.scrollIntoView();
}
function renderPreferences(){
 var box=$('preferences');box.textContent='';
 PREFS.forEach(function(p){
  var d=el('details',{'data-preference':p.name});var s=el('summary',null,p.name+' \u2014 '+p.displayName+' ('+(p.os||'any OS')+', '+(p.architecture||'default architecture')+'; admitted with '+p.admittedCount+' instance type'+(p.admittedCount===1?'':'s')+(p.deprecated?'; deprecated':'')+')');d.appendChild(s);
  var filled=false;
  function fillPairs(){
   if(filled)return;filled=true;
   var req=[];if(p.requiredCpu)req.push(p.requiredCpu+' vCPUs');if(p.requiredMemory)req.push(p.requiredMemory+' of memory');
   d.appendChild(el('p',null,req.length?'Requires at least '+req.join(' and ')+'.':'No requirements.'));
   var row=D.pairs[p.pairRow],ok=[],by={};
   IT.forEach(function(r){if(r.generator!==p.generator)return;var o=cell(row,r);if(o===-1)ok.push(r.name);else if(o>=0)(by[o]=by[o]||[]).push(r.name);});
   d.appendChild(el('p',null,'Admitted with: '+(ok.join(', ')||'none')));
   var keys=Object.keys(by);if(keys.length){var ul=el('ul',{'aria-label':'refused pairs'});keys.forEach(function(k){ul.appendChild(el('li',null,by[k].join(', ')+': '+D.reasons[Number(k)]));});d.appendChild(el('p',null,'Refused by KubeVirt:'));d.appendChild(ul);}
  }
  d.addEventListener('toggle',function(){if(d.open)fillPairs();});
  box.appendChild(d);
 });
}
function renderHistory(){
 var box=$('history');box.textContent='';
 if(!D.history.length){box.appendChild(el('p',{'class':'mute'},'No release lock: no releases recorded yet.'));return;}
 D.history.forEach(function(h){h.sections.forEach(function(s){
  var d=el('details');d.appendChild(el('summary',null,h.generator+' '+s.version));
  [['added','Added'],['deprecated','Deprecated'],['removed','Removed'],['changed','Changed']].forEach(function(k){var list=s[k[0]];if(list&&list.length){d.appendChild(el('p',null,k[1]+': '+list.map(function(e){return e.name+(e.detail?' ('+e.detail+')':'');}).join('; ')));}});
  box.appendChild(d);
 });});
}
function download(name,type,text){var a=el('a',{download:name});a.href=URL.createObjectURL(new Blob([text],{type:type}));document.body.appendChild(a);a.click();setTimeout(function(){URL.revokeObjectURL(a.href);a.remove();},0);}
var CSV=['name','generator','family','class','cpu','memory','hugepages','dedicatedCpu','gpus','architectures','podCpu','podMemory','deprecated','replacement'];
function csv(rows){function cell(v){var s=Array.isArray(v)?v.join(' '):String(v);if(/^[=+\\-@\\t\\r]/.test(s))s="'"+s;return /[",\\n\\r]/.test(s)?'"'+s.replace(/"/g,'""')+'"':s;}return [CSV.join(',')].concat(rows.map(function(r){return CSV.map(function(c){return cell(r[c]);}).join(',');})).join('\\r\\n')+'\\r\\n';}
function options(id,values){var s=$(id);values.forEach(function(v){s.appendChild(el('option',{value:v},v));});}
function uniq(a){return a.filter(function(v,i){return v&&a.indexOf(v)===i;}).sort();}
function bind(){
 options('f-arch',uniq([].concat.apply(['amd64','arm64','s390x'],IT.map(function(r){return r.architectures;}))));
 options('f-fam',uniq(IT.map(function(r){return r.family;})));options('f-cls',uniq(IT.map(function(r){return r.class;})));
 options('f-hp',['any'].concat(uniq(IT.map(function(r){return r.hugepages;}))));options('f-gpu',uniq([].concat.apply([],IT.map(function(r){return r.gpus.concat(r.hostDevices);}))));
 options('f-pref',uniq(PREFS.map(function(p){return p.name;})));
 var cols=$('cols');COLS.forEach(function(c){if(c[0]==='name')return;var l=el('label',{'class':'check'});var cb=el('input',{type:'checkbox','data-col':c[0]});l.appendChild(cb);l.appendChild(document.createTextNode(c[1]));cols.appendChild(l);cb.addEventListener('change',function(){S.cols=['name'].concat(COLS.map(function(x){return x[0];}).filter(function(k){return k!=='name'&&(k===c[0]?cb.checked:S.cols.indexOf(k)>=0);}));update();});});
 var inputs={'f-q':'q','f-arch':'arch','f-fam':'fam','f-cls':'cls','f-hp':'hp','f-gpu':'gpu','f-pref':'pref'};
 Object.keys(inputs).forEach(function(id){$(id).addEventListener('input',function(){S[inputs[id]]=$(id).value;S.limit=200;update();});});
 [['f-cpu-min','cpu',0],['f-cpu-max','cpu',1],['f-mem-min','mem',0],['f-mem-max','mem',1]].forEach(function(x){$(x[0]).addEventListener('input',function(){S[x[1]][x[2]]=$(x[0]).value;S.limit=200;update();});});
 $('f-ded').addEventListener('change',function(){S.ded=$('f-ded').checked;update();});$('f-dep').addEventListener('change',function(){S.dep=$('f-dep').checked;update();});
 $('filters').addEventListener('submit',function(e){e.preventDefault();});
 $('more').addEventListener('click',function(){S.limit+=200;renderTable();});
 $('reset').addEventListener('click',function(){location.hash='';readHash();fill();update();});
 $('csv').addEventListener('click',function(){download('instancetypes.csv','text/csv',csv(current));});
 $('json').addEventListener('click',function(){download('instancetypes.json','application/json',JSON.stringify(current,null,2)+'\\n');});
 window.addEventListener('hashchange',function(){readHash();fill();renderTable();renderCompare();});
}
function fill(){
 $('f-q').value=S.q;$('f-cpu-min').value=S.cpu[0];$('f-cpu-max').value=S.cpu[1];$('f-mem-min').value=S.mem[0];$('f-mem-max').value=S.mem[1];
 $('f-arch').value=S.arch;$('f-fam').value=S.fam;$('f-cls').value=S.cls;$('f-hp').value=S.hp;$('f-gpu').value=S.gpu;$('f-pref').value=S.pref;$('f-ded').checked=S.ded;$('f-dep').checked=S.dep;
 Array.prototype.forEach.call(document.querySelectorAll('#cols input'),function(cb){cb.checked=S.cols.indexOf(cb.getAttribute('data-col'))>=0;});
}
function update(){writeHash();renderTable();renderCompare();}
readHash();bind();fill();renderTable();renderCompare();renderPreferences();renderHistory();
document.documentElement.setAttribute('data-ready','1');
})();
`;

const BODY = `<header><h1 id="title"></h1><p class="mute" id="subtitle"></p></header>
<main>
<form id="filters" role="search" aria-label="Filter instance types">
<fieldset><legend>Filter</legend>
<label>Search<input type="search" id="f-q" placeholder="name, class, description"></label>
<label>vCPUs from<input type="number" id="f-cpu-min" min="0"></label><label>to<input type="number" id="f-cpu-max" min="0"></label>
<label>Memory from (GiB)<input type="number" id="f-mem-min" min="0" step="any"></label><label>to (GiB)<input type="number" id="f-mem-max" min="0" step="any"></label>
<label>Architecture<select id="f-arch"><option value="">any</option></select></label>
<label>Family<select id="f-fam"><option value="">any</option></select></label>
<label>Class<select id="f-cls"><option value="">any</option></select></label>
<label>Hugepages<select id="f-hp"><option value="">any or none</option></select></label>
<label>GPU or device<select id="f-gpu"><option value="">any or none</option></select></label>
<label>Admitted with preference<select id="f-pref"><option value="">any</option></select></label>
<label class="check"><input type="checkbox" id="f-ded">Dedicated CPUs</label>
<label class="check"><input type="checkbox" id="f-dep">Show deprecated</label>
<button type="button" id="reset">Reset</button>
</fieldset>
<details><summary>Columns</summary><fieldset class="cols" id="cols"><legend>Columns shown</legend></fieldset></details>
</form>
<p id="status" role="status" aria-live="polite"></p>
<p><button type="button" id="csv">Download CSV</button> <button type="button" id="json">Download JSON</button> <span class="mute">(the rows shown by the filters)</span></p>
<div class="wrap" id="table"><table><caption class="mute">Instance types; choose a name for its details and a VM snippet</caption><thead id="thead"></thead><tbody id="tbody"></tbody></table></div>
<p><button type="button" id="more" hidden>Show more</button></p>
<section aria-labelledby="h-details"><h2 id="h-details">Details</h2><div id="details" hidden></div></section>
<section aria-labelledby="h-compare"><h2 id="h-compare">Compare</h2><div id="compare" class="wrap"></div></section>
<section aria-labelledby="h-prefs"><h2 id="h-prefs">Preferences</h2><div id="preferences"></div></section>
<section aria-labelledby="h-history"><h2 id="h-history">Release history</h2><div id="history"></div></section>
</main>`;

const TITLE_JS = `document.getElementById('title').textContent=JSON.parse(document.getElementById('itgen-data').textContent).title;document.getElementById('subtitle').textContent='Generated by itgen. Every figure is what KubeVirt does with these objects: pod requests under its default configuration, preferences paired as its admission does.';document.title=document.getElementById('title').textContent;`;

/** What marks a page itgen wrote: `itgen site` replaces only such an index.html. */
export const SITE_MARKER = 'itgen catalog explorer';

const hash = (s: string): string => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;

/** JSON that no `</script>`, `<!--` or line separator in it can break out of its element. */
function inertJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** The explorer page for `data`: one file, no other request. */
export function sitePage(data: SiteData): string {
  const script = TITLE_JS + JS;
  const csp = ["default-src 'none'", `script-src ${hash(script)}`, `style-src ${hash(CSS)}`, "img-src 'none'", "base-uri 'none'", "form-action 'none'"].join(
    '; ',
  );
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    `<meta name="generator" content="${SITE_MARKER}">`,
    '<title>Instance types</title>',
    `<style>${CSS}</style>`,
    '</head>',
    '<body>',
    BODY,
    `<script type="application/json" id="itgen-data">${inertJson(data)}</script>`,
    `<script>${script}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
