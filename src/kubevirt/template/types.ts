/** The shapes virt-template-engine's processing works on and answers with (engine.ts). */
import type { Json, JsonObject } from '../../json';
import type { Path } from './convert';
import type { Generated } from './generator';

export interface TemplateParameter {
  readonly name: string;
  readonly displayName: string;
  readonly description: string;
  readonly value: string;
  readonly generate: string;
  readonly from: string;
  readonly required: boolean;
}

export interface DecodedTemplate {
  readonly parameters: readonly TemplateParameter[];
  /** spec.virtualMachine as written (undefined when absent or null). */
  readonly virtualMachine: Json | undefined;
  readonly message: string;
}

export type TemplateStage = 'decode' | 'params-file' | 'merge' | 'references' | 'process';

export interface TemplateProblem {
  readonly stage: TemplateStage;
  /** virtctl's error text. */
  readonly message: string;
  /** Where in the template document it is about; `undefined` for the command line's parameters. */
  readonly path?: Path;
  /** A parameter given on the command line or in the params file that the template does not declare. */
  readonly parameter?: string;
  /** With `parameter`: the names the template declares. */
  readonly declared?: readonly string[];
}

export interface TemplateWarning {
  readonly message: string;
  readonly path: Path;
  /**
   * `unused`: the engine's warning; `dropped`: a field the conversion drops in silence (itgen's);
   * `skipped`: virt-template's webhook does not process a template whose required parameter has no value.
   */
  readonly kind: 'unused' | 'dropped' | 'skipped';
}

export interface ProcessedTemplate {
  readonly error?: TemplateProblem;
  readonly warnings: readonly TemplateWarning[];
  /** The VirtualMachine, as the engine's typed VM holds it (fields it drops removed, kind and apiVersion set). */
  readonly vm?: JsonObject;
  readonly message?: string;
  /** The parameters whose value was generated, with what was drawn. */
  readonly generated: Readonly<Record<string, Generated>>;
  /** Each parameter's final value (given, default or generated). */
  readonly values: Readonly<Record<string, string>>;
  /** Where each parameter is referenced: template paths of the strings (and keys) that name it. */
  readonly references: Readonly<Record<string, readonly Path[]>>;
}

export interface ProcessOptions {
  /** Values given (-p NAME=VALUE, then the params file), in the order given. */
  readonly params?: ReadonlyMap<string, string>;
  /** Chooses an index below a bound for generated values (crypto-random by default). */
  readonly pick?: (bound: number) => number;
  /** Whether the document was JSON (keys in document order) or YAML (sigs.k8s.io/yaml sorts them). */
  readonly json?: boolean;
  /**
   * Whose words: `virtctl` (`template process --local`, the default) or `webhook`, virt-template's
   * validating webhook on the template as applied (internal/webhook/v1beta1 ValidateTemplate at
   * v0.2.2): no parameters given, references refused without virtctl's prefix, a required parameter
   * with neither value nor generator a warning that skips processing, a processing error as
   * `processing validation failed: ...`.
   */
  readonly door?: 'virtctl' | 'webhook';
}

export class TemplateFailure {
  constructor(readonly problem: TemplateProblem) {}
}
