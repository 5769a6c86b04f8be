// The `template` mode of itgen-oracle: what `virtctl template process --local` does with a
// VirtualMachineTemplate file and parameters, through the virt-template-engine KubeVirt vendors
// (kubevirt.io/virt-template-engine v0.2.0 at KubeVirt d923fdb815; v0.1.7 at v1.8).
//
// Library code: k8syaml.NewYAMLOrJSONDecoder (the file and the params file, as process.go reads
// them), template.MergeParameters, template.ValidateParameterReferences and
// template.GetDefaultProcessor().Process. Transcribed from pkg/virtctl/template/process/process.go
// (processLocal, readFromFileOrStdin, readParamFile): the order of those calls and the words
// virtctl wraps their errors in. Nothing else.
//
// Input:  {"id":"t00001","mode":"template","template":"<file text>","params":{"K":"V"},"paramsFile":"<text>"}
// With "door":"webhook", virt-template's validating webhook instead (the template as applied).
// With "args" (the command line after `virtctl template process`), only the flags are read, by
// virtctl's own command (process.NewCommand: cobra's ParseFlags and ValidateFlagGroups, pflag's
// StringToString for --param): {"flags":{"params":{..}}} or {"flags":{"error":".."}}.
// Output: {"id":..,"mode":"template","template":{"stage":..,"error":..,"warnings":[..],"vm":{..},"message":..}}
// stage: "" (processed), "decode", "params-file", "merge", "references" or "process".
package main

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"unsafe"

	k8syaml "k8s.io/apimachinery/pkg/util/yaml"

	virtv1 "kubevirt.io/api/core/v1"

	"kubevirt.io/kubevirt/pkg/virtctl/template/process"
	"kubevirt.io/virt-template-api/core/v1beta1"
	"kubevirt.io/virt-template-engine/template"
	"kubevirt.io/virt-template-engine/template/generator"
)

type templateInput struct {
	ID         string            `json:"id"`
	Mode       string            `json:"mode"`
	Template   string            `json:"template"`
	Params     map[string]string `json:"params,omitempty"`
	ParamsFile *string           `json:"paramsFile,omitempty"`
	// mode "generate": one expression through the engine's expression generator.
	From string `json:"from,omitempty"`
	// With args: the flags of `virtctl template process` as its command reads them.
	Args []string `json:"args,omitempty"`
	// "webhook": what virt-template's validating webhook says of the template (applied, no parameters).
	Door string `json:"door,omitempty"`
}

type flagsAnswer struct {
	Params map[string]string `json:"params,omitempty"`
	Error  string            `json:"error,omitempty"`
}

type templateAnswer struct {
	Stage    string          `json:"stage"`
	Error    string          `json:"error,omitempty"`
	Warnings []string        `json:"warnings,omitempty"`
	VM       json.RawMessage `json:"vm,omitempty"`
	Message  string          `json:"message,omitempty"`
}

type templateOutput struct {
	ID       string          `json:"id"`
	Mode     string          `json:"mode"`
	Template *templateAnswer `json:"template,omitempty"`
	// mode "gotypes"
	GoTypes map[string]goType `json:"goTypes,omitempty"`
	// with args
	Flags *flagsAnswer `json:"flags,omitempty"`
	// mode "generate"
	Value    *string `json:"value,omitempty"`
	GenError string  `json:"generateError,omitempty"`
	Error    string  `json:"error,omitempty"`
}

// jsonBufferSize as process.go sets it.
const templateJSONBufferSize = 1024

func templateMode(line []byte) (out templateOutput) {
	var in templateInput
	if err := json.Unmarshal(line, &in); err != nil {
		return templateOutput{Error: "input: " + err.Error()}
	}
	out.ID, out.Mode = in.ID, in.Mode
	defer func() {
		if r := recover(); r != nil {
			out.Error = "oracle panic: " + panicText(r)
		}
	}()
	if in.Mode == "gotypes" {
		out.GoTypes = goTypes()
		return out
	}
	if in.Mode == "generate" {
		v, err := generator.ExpressionValue{}.GenerateValue(in.From)
		if err != nil {
			out.GenError = err.Error()
		} else {
			out.Value = &v
		}
		return out
	}
	if in.Args != nil {
		out.Flags = processFlags(in.Args)
		return out
	}
	if in.Door == "webhook" {
		out.Template = webhookValidate(&in)
		return out
	}
	out.Template = processLocal(&in)
	return out
}

// webhookValidate: virt-template v0.2.2's validating webhook, internal/webhook/v1beta1
// ValidateTemplate and ValidateProcessing, transcribed (the package is internal to virt-template,
// which KubeVirt does not vendor): the engine's ValidateParameterReferences, then, unless a required
// parameter has neither value nor generator (a warning each, processing skipped), its Process. The
// template is decoded as virtctl decodes a file. Stage: "references", "skipped", "process" or "".
func webhookValidate(in *templateInput) *templateAnswer {
	tpl := &v1beta1.VirtualMachineTemplate{}
	if err := k8syaml.NewYAMLOrJSONDecoder(strings.NewReader(in.Template), templateJSONBufferSize).Decode(tpl); err != nil {
		return &templateAnswer{Stage: "decode", Error: err.Error()}
	}
	warnings, errs := template.ValidateParameterReferences(tpl)
	sort.Strings(warnings)
	if len(errs) > 0 {
		return &templateAnswer{Stage: "references", Warnings: warnings, Error: sortedAggregate("", errs.ToAggregate().Errors())}
	}
	var skipped []string
	for _, param := range tpl.Spec.Parameters {
		if param.Required && param.Value == "" && param.Generate == "" {
			skipped = append(skipped, fmt.Sprintf("processing validation skipped: required parameter %q has neither value nor generator", param.Name))
		}
	}
	if len(skipped) > 0 {
		return &templateAnswer{Stage: "skipped", Warnings: append(warnings, skipped...)}
	}
	if _, _, err := template.GetDefaultProcessor().Process(tpl); err != nil {
		return &templateAnswer{Stage: "process", Warnings: warnings, Error: fmt.Errorf("processing validation failed: %w", err).Error()}
	}
	return &templateAnswer{Warnings: warnings}
}

// processFlags: virtctl's process command reads the arguments' flags (library code, nothing transcribed).
func processFlags(args []string) *flagsAnswer {
	cmd := process.NewCommand()
	if err := cmd.ParseFlags(args); err != nil {
		return &flagsAnswer{Error: err.Error()}
	}
	if err := cmd.ValidateFlagGroups(); err != nil {
		return &flagsAnswer{Error: err.Error()}
	}
	// The map the flag writes into (process.go's p.params), not GetStringToString, which reads the
	// flag back through its String() (a CSV line with its ends trimmed) and so loses what Set kept.
	params := map[string]string{}
	if f := cmd.Flags().Lookup("param"); f != nil {
		field := reflect.ValueOf(f.Value).Elem().FieldByName("value")
		if m := reflect.NewAt(field.Type(), unsafe.Pointer(field.UnsafeAddr())).Elem().Interface().(*map[string]string); m != nil && *m != nil {
			params = *m
		}
	}
	return &flagsAnswer{Params: params}
}

// processLocal: process.go's readFromFileOrStdin, readParamFile and processLocal, in that order.
func processLocal(in *templateInput) *templateAnswer {
	params := map[string]string{}
	for k, v := range in.Params {
		params[k] = v
	}
	if in.ParamsFile != nil {
		if err := k8syaml.NewYAMLOrJSONDecoder(strings.NewReader(*in.ParamsFile), templateJSONBufferSize).Decode(&params); err != nil {
			return &templateAnswer{Stage: "params-file", Error: fmt.Errorf("error reading params file: %w", err).Error()}
		}
	}
	tpl := &v1beta1.VirtualMachineTemplate{}
	if err := k8syaml.NewYAMLOrJSONDecoder(strings.NewReader(in.Template), templateJSONBufferSize).Decode(tpl); err != nil {
		return &templateAnswer{Stage: "decode", Error: fmt.Errorf("error decoding VirtualMachineTemplate: %w", err).Error()}
	}
	var err error
	tpl.Spec.Parameters, err = template.MergeParameters(tpl.Spec.Parameters, params)
	if err != nil {
		return &templateAnswer{Stage: "merge", Error: fmt.Errorf("error merging template parameters: %w", err).Error()}
	}
	warnings, errs := template.ValidateParameterReferences(tpl)
	// virtctl prints them in Go's map order; sorted here so that answers are stable.
	sort.Strings(warnings)
	if len(errs) > 0 {
		return &templateAnswer{Stage: "references", Warnings: warnings, Error: sortedAggregate("error validating template parameters: ", errs.ToAggregate().Errors())}
	}
	vm, msg, pErr := template.GetDefaultProcessor().Process(tpl)
	if pErr != nil {
		return &templateAnswer{Stage: "process", Warnings: warnings, Error: fmt.Errorf("error processing VirtualMachineTemplate locally: %w", pErr).Error()}
	}
	raw, mErr := json.Marshal(vm)
	if mErr != nil {
		return &templateAnswer{Stage: "process", Warnings: warnings, Error: "oracle: marshal: " + mErr.Error()}
	}
	return &templateAnswer{Warnings: warnings, VM: raw, Message: msg}
}

// sortedAggregate: utilerrors.Aggregate's Error() ("[a, b]" for several, the one alone) over the
// errors sorted (virtctl's order is Go's map order).
func sortedAggregate(prefix string, errs []error) string {
	msgs := make([]string, 0, len(errs))
	seen := map[string]bool{}
	for _, e := range errs {
		if !seen[e.Error()] {
			seen[e.Error()] = true
			msgs = append(msgs, e.Error())
		}
	}
	sort.Strings(msgs)
	if len(msgs) == 1 {
		return prefix + msgs[0]
	}
	return prefix + "[" + strings.Join(msgs, ", ") + "]"
}

// goTypes: the Go types a processed VM is decoded into (mode "gotypes"), walked by reflection from
// virtv1.VirtualMachine: for each struct, its fields in declaration order with their JSON names,
// Go type, kind, and whether the type decodes itself (json.Unmarshaler). itgen's
// src/kubevirt/template/vm-go-types.ts is generated from this answer.
type goField struct {
	JSON   string `json:"json"`
	Inline bool   `json:"inline,omitempty"`
	Type   string `json:"type"`
}

type goType struct {
	Kind     string    `json:"kind"`
	Name     string    `json:"name,omitempty"`
	String   string    `json:"string"`
	Custom   bool      `json:"custom,omitempty"`
	Elem     string    `json:"elem,omitempty"`
	Key      string    `json:"key,omitempty"`
	Fields   []goField `json:"fields,omitempty"`
}

func goTypes() map[string]goType {
	out := map[string]goType{}
	unmarshaler := reflect.TypeOf((*json.Unmarshaler)(nil)).Elem()
	// Ids qualified by package path: Kubernetes' and KubeVirt's packages are both "v1".
	var idOf func(t reflect.Type) string
	idOf = func(t reflect.Type) string {
		if t.Name() != "" {
			if t.PkgPath() == "" {
				return t.Name()
			}
			return t.PkgPath() + "." + t.Name()
		}
		switch t.Kind() {
		case reflect.Pointer:
			return "*" + idOf(t.Elem())
		case reflect.Slice:
			return "[]" + idOf(t.Elem())
		case reflect.Map:
			return "map[" + idOf(t.Key()) + "]" + idOf(t.Elem())
		}
		return t.String()
	}
	var walk func(t reflect.Type) string
	walk = func(t reflect.Type) string {
		id := idOf(t)
		if _, ok := out[id]; ok {
			return id
		}
		g := goType{Kind: t.Kind().String(), Name: t.Name(), String: t.String()}
		if reflect.PointerTo(t).Implements(unmarshaler) || t.Implements(unmarshaler) {
			g.Custom = true
		}
		out[id] = g
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array:
			g.Elem = walk(t.Elem())
		case reflect.Map:
			g.Key = walk(t.Key())
			g.Elem = walk(t.Elem())
		case reflect.Struct:
			for i := 0; i < t.NumField(); i++ {
				f := t.Field(i)
				if !f.IsExported() {
					continue
				}
				tag := f.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name := strings.Split(tag, ",")[0]
				inline := name == "" && f.Anonymous
				if name == "" && !f.Anonymous {
					name = f.Name
				}
				g.Fields = append(g.Fields, goField{JSON: name, Inline: inline, Type: walk(f.Type)})
			}
		}
		out[id] = g
		return id
	}
	walk(reflect.TypeOf(virtv1.VirtualMachine{}))
	return out
}
