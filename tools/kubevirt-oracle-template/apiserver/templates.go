// The VirtualMachineTemplate CRD for itgen-apiserver: added to its main package by build.sh beside
// this file. It registers the CRD of the virt-template bundle KubeVirt d923fdb815 embeds and installs
// (pkg/virt-operator/resource/generate/components/data/virt-template/install-virt-operator.yaml,
// copied beside this file at build time), each served version under its own key, so that a
// template is judged against the schema of the version it is written in, as the API server does.
// Library code: sigs.k8s.io/yaml, the apiextensions conversions main.go already calls. Nothing is
// transcribed.
package main

import (
	_ "embed"
	"fmt"
	"strings"

	apiextensions "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	extv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/kube-openapi/pkg/validation/spec"
	"sigs.k8s.io/yaml"
)

//go:embed virt-template-bundle.yaml
var virtTemplateBundle string

var crdsByVersion = map[string]*crdInfo{}

func init() {
	for _, doc := range strings.Split(virtTemplateBundle, "\n---\n") {
		crd := &extv1.CustomResourceDefinition{}
		if err := yaml.Unmarshal([]byte(doc), crd); err != nil || crd.Kind != "CustomResourceDefinition" || crd.Spec.Names.Kind != "VirtualMachineTemplate" {
			continue
		}
		for _, v := range crd.Spec.Versions {
			if !v.Served || v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
				continue
			}
			internal := &apiextensions.JSONSchemaProps{}
			if err := extv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(v.Schema.OpenAPIV3Schema, internal, nil); err != nil {
				panic(err)
			}
			openapi := &spec.Schema{}
			if err := ConvertJSONSchemaPropsWithPostProcess(internal, openapi, stripUnsupportedFormats); err != nil {
				panic(err)
			}
			crdsByVersion[crd.Spec.Names.Kind+"/"+v.Name] = &crdInfo{kind: crd.Spec.Names.Kind, group: crd.Spec.Group, version: v.Name, namespaced: crd.Spec.Scope == extv1.NamespaceScoped, internal: internal, openapi: openapi}
		}
	}
	if len(crdsByVersion) == 0 {
		panic(fmt.Sprintf("no VirtualMachineTemplate CRD in the bundle (%d bytes)", len(virtTemplateBundle)))
	}
}

// crdOf: the CRD of the object's kind at the version its apiVersion names, else main.go's table.
func crdOf(obj map[string]interface{}, kind string) (*crdInfo, bool) {
	if av, ok := obj["apiVersion"].(string); ok {
		if c, ok := crdsByVersion[kind+"/"+av[strings.LastIndex(av, "/")+1:]]; ok {
			return c, true
		}
	}
	c, ok := crds[kind]
	return c, ok
}
