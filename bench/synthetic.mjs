// Synthetic catalogs for the benchmark: `objects` emitted manifests, 80% instance types and 20%
// preferences (each in a cluster and a namespaced kind), with fragments, variants, inheritance
// and architecture variants so that every stage of the compiler does real work.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export function writeSyntheticProject(dir, objects) {
  const instancetypes = Math.round((objects * 0.8) / 2);
  const preferences = Math.round((objects * 0.2) / 2);
  // families x sizes x (1 + variant on half the families) ~ instancetypes
  const sizes = Math.max(2, Math.round(Math.sqrt(instancetypes / 1.5)));
  const families = Math.max(1, Math.round(instancetypes / (sizes * 1.5)));
  const cat = path.join(dir, 'catalogs', 'synthetic');
  mkdirSync(path.join(cat, 'families'), { recursive: true });
  mkdirSync(path.join(cat, 'preferences'), { recursive: true });
  mkdirSync(path.join(dir, 'generators'), { recursive: true });
  writeFileSync(path.join(dir, 'generators', 'synthetic.yaml'), 'catalog: ../catalogs/synthetic\noutput: ../output/synthetic\nvendor: kubevirt.io\n');
  writeFileSync(
    path.join(cat, 'catalog.yaml'),
    'kind: Catalog\nname: synthetic\nnaming:\n  instancetype: "{family}{version}.{size}"\n  preference: "{name}"\n',
  );
  const ladder = ['kind: SizeLadder', 'name: ladder', 'sizes:'];
  for (let i = 0; i < sizes; i++) ladder.push(`  - name: s${String(i).padStart(4, '0')}`, `    cpu: ${i + 1}`);
  writeFileSync(path.join(cat, 'sizes.yaml'), ladder.join('\n') + '\n');
  writeFileSync(
    path.join(cat, 'fragments.yaml'),
    [
      'kind: InstancetypeFragment\nname: dedicated\nspec:\n  cpu:\n    dedicatedCPUPlacement: true\n    isolateEmulatorThread: true\n  ioThreadsPolicy: auto',
      'kind: PreferenceFragment\nname: efi\nspec:\n  firmware:\n    preferredEfi:\n      persistent: true\n  features:\n    preferredAcpi: {}\n    preferredSmm: {}',
    ].join('\n---\n') + '\n',
  );
  let made = 0;
  const perFile = 50;
  for (let f = 0, file = 0; f < families; file++) {
    const docs = [];
    for (let k = 0; k < perFile && f < families; k++, f++) {
      const variant = f % 2 === 0;
      made += sizes * (variant ? 2 : 1);
      docs.push(
        [
          'kind: Family',
          `name: f${f}`,
          'version: 1',
          `displayName: Family ${f}`,
          `description: "Synthetic family {{family}}, size {{size}}: {{cpu}} vCPUs, {{memory}}"`,
          `class: class${f % 7}`,
          `memoryPerCPU: ${[1, 2, 4, 8][f % 4]}Gi`,
          ...(f % 3 === 0 ? ['include: [dedicated]'] : []),
          ...(variant
            ? [
                'spec:',
                '  memory:',
                '    hugepages:',
                '      pageSize: 2Mi',
                'variants:',
                '  - name: 1gi',
                '    spec:',
                '      memory:',
                '        hugepages:',
                '          pageSize: 1Gi',
              ]
            : []),
        ].join('\n'),
      );
    }
    writeFileSync(path.join(cat, 'families', `families-${file}.yaml`), docs.join('\n---\n') + '\n');
  }
  // Preferences: 10 abstract bases, then concrete ones inheriting from one base each; one in
  // four has arm64 and amd64 variants (two objects).
  const bases = [];
  for (let b = 0; b < 10; b++) {
    bases.push(
      [
        'kind: Preference',
        `name: base${b}`,
        'abstract: true',
        ...(b % 2 === 0 ? ['include: [efi]'] : []),
        'spec:',
        '  annotations:',
        `    vm.kubevirt.io/os: ${b % 2 ? 'windows' : 'linux'}`,
        '  devices:',
        `    preferredDiskBus: ${b % 2 ? 'sata' : 'virtio'}`,
        `    preferredInterfaceModel: ${b % 2 ? 'e1000e' : 'virtio'}`,
      ].join('\n'),
    );
  }
  writeFileSync(path.join(cat, 'preferences', 'bases.yaml'), bases.join('\n---\n') + '\n');
  let prefObjects = 0;
  for (let p = 0, file = 0; prefObjects < preferences; file++) {
    const docs = [];
    for (let k = 0; k < perFile && prefObjects < preferences; k++, p++) {
      const multiArch = p % 4 === 0 && prefObjects + 2 <= preferences;
      prefObjects += multiArch ? 2 : 1;
      docs.push(
        [
          'kind: Preference',
          `name: os${p}`,
          `inherits: base${p % 10}`,
          `displayName: Operating system ${p}`,
          ...(multiArch ? ['architectures: [amd64, arm64]'] : []),
          'spec:',
          '  requirements:',
          '    cpu:',
          '      guest: 1',
          '    memory:',
          `      guest: ${512 * (1 + (p % 4))}Mi`,
        ].join('\n'),
      );
    }
    writeFileSync(path.join(cat, 'preferences', `os-${file}.yaml`), docs.join('\n---\n') + '\n');
  }
  return { instancetypes: made, preferences: prefObjects, objects: 2 * (made + prefObjects), sizes, families };
}
