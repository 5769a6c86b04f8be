// Mode "vap-typecheck", continued: what kube-apiserver's limits make of a policy's size.
//
// Library code: the CEL environment kube-apiserver compiles a ValidatingAdmissionPolicy's
// expressions in (k8s.io/apiserver's environment.MustBaseEnvSet with the composited compiler
// that gives `variables` their types), cel-go's parser (which refuses more than 100,000 code
// points) and cel-go's static cost estimator with k8s.io/apiserver's library.CostEstimator
// (`object`, `oldObject`, `request`, `namespaceObject` and `params` declared dyn for it).
// Written here: the walk over the policy's expressions and the object's size as JSON.
package main

import (
	"encoding/json"
	"unicode/utf8"

	"cel.dev/cel-go/cel"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	plugincel "k8s.io/apiserver/pkg/admission/plugin/cel"
	"k8s.io/apiserver/pkg/admission/plugin/policy/validating"
	"k8s.io/apiserver/pkg/cel/environment"
	"k8s.io/apiserver/pkg/cel/library"
)

type expressionReport struct {
	Field      string `json:"field"`
	CodePoints int    `json:"codePoints"`
	// cel-go's static estimate (kube-apiserver's cost estimator); absent when it does not compile.
	EstimatedMin *uint64 `json:"estimatedCostMin,omitempty"`
	EstimatedMax *uint64 `json:"estimatedCostMax,omitempty"`
	Error        string  `json:"error,omitempty"`
}

// policyLimits reports each expression's size and estimated cost, in order of the policy's
// fields, and the size of the object as JSON.
func policyLimits(p *admissionregistrationv1.ValidatingAdmissionPolicy, raw json.RawMessage) map[string]any {
	envSet := environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion())
	cc, err := plugincel.NewCompositedCompiler(envSet)
	if err != nil {
		return map[string]any{"error": err.Error()}
	}
	decl := plugincel.OptionalVariableDeclarations{HasParams: p.Spec.ParamKind != nil, HasAuthorizer: true}
	estimator := &library.CostEstimator{}
	var out []expressionReport
	measure := func(field, expression string) {
		r := expressionReport{Field: field, CodePoints: utf8.RuneCountInString(expression)}
		env, err := cc.Env(environment.NewExpressions)
		if err == nil {
			// The composited environment (with `variables`) and the request's variables, as dyn.
			env, err = env.Extend(cel.Variable("object", cel.DynType), cel.Variable("oldObject", cel.DynType),
				cel.Variable("request", cel.DynType), cel.Variable("namespaceObject", cel.DynType), cel.Variable("params", cel.DynType))
		}
		if err != nil {
			r.Error = err.Error()
		} else if ast, issues := env.Compile(expression); issues != nil && issues.Err() != nil {
			r.Error = issues.Err().Error()
			if len(r.Error) > 300 {
				r.Error = r.Error[:300]
			}
		} else if est, err := env.EstimateCost(ast, estimator); err != nil {
			r.Error = err.Error()
		} else {
			r.EstimatedMin, r.EstimatedMax = &est.Min, &est.Max
		}
		out = append(out, r)
	}
	for i, v := range p.Spec.Variables {
		measure(fieldName("variables", i, "expression"), v.Expression)
		cc.CompileAndStoreVariable(&validating.Variable{Name: v.Name, Expression: v.Expression}, decl, environment.NewExpressions)
	}
	for i, v := range p.Spec.Validations {
		measure(fieldName("validations", i, "expression"), v.Expression)
		if v.MessageExpression != "" {
			measure(fieldName("validations", i, "messageExpression"), v.MessageExpression)
		}
	}
	return map[string]any{"expressions": out, "objectBytes": len(raw)}
}

func fieldName(list string, i int, key string) string {
	b, _ := json.Marshal(i)
	return "spec." + list + "[" + string(b) + "]." + key
}
