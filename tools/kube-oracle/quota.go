package main

// Mode "quota": whether kube-apiserver's ResourceQuota admission admits a pod into a namespace, and
// its words when it does not. Library code: k8s.io/apiserver's resourcequota.CheckRequest (the
// whole decision: which quotas match, their constraints, the usage added, what is exceeded and the
// message), quota/v1 (Add, Mask, LessThanOrEqual, ...), quota/v1/generic.Matches, component-helpers'
// PodRequests and PodLimits, admission.NewAttributesRecord. The pod evaluator lives in
// k8s.io/kubernetes (pkg/quota/v1/evaluator/core/pods.go), which Debian does not package: it is
// transcribed below (Constraints, MatchingResources, Usage, scopes), as is the quota controller's
// `status.hard = spec.hard` (pkg/controller/resourcequota) for a quota given without a status.

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/admission/plugin/resourcequota"
	quota "k8s.io/apiserver/pkg/quota/v1"
	"k8s.io/apiserver/pkg/quota/v1/generic"
	resourcehelper "k8s.io/component-helpers/resource"
)

var podObjectCountName = generic.ObjectCountQuotaResourceNameFor(v1.SchemeGroupVersion.WithResource("pods").GroupResource())

var podResources = []v1.ResourceName{
	podObjectCountName, v1.ResourceCPU, v1.ResourceMemory, v1.ResourceEphemeralStorage,
	v1.ResourceRequestsCPU, v1.ResourceRequestsMemory, v1.ResourceRequestsEphemeralStorage,
	v1.ResourceLimitsCPU, v1.ResourceLimitsMemory, v1.ResourceLimitsEphemeralStorage, v1.ResourcePods,
}
var podResourcePrefixes = []string{v1.ResourceHugePagesPrefix, v1.ResourceRequestsHugePagesPrefix}
var requestedResourcePrefixes = []string{v1.ResourceHugePagesPrefix}
var validationSet = sets.NewString(string(v1.ResourceCPU), string(v1.ResourceMemory), string(v1.ResourceRequestsCPU),
	string(v1.ResourceRequestsMemory), string(v1.ResourceLimitsCPU), string(v1.ResourceLimitsMemory))

type podEvaluator struct{}

func (podEvaluator) GroupResource() schema.GroupResource {
	return v1.SchemeGroupVersion.WithResource("pods").GroupResource()
}

func (podEvaluator) Handles(a admission.Attributes) bool {
	if a.GetSubresource() != "" && a.GetSubresource() != "resize" {
		return false
	}
	op := a.GetOperation()
	return op == admission.Create || (a.GetSubresource() == "resize" && op == admission.Update)
}

func (p podEvaluator) Matches(rq *v1.ResourceQuota, item runtime.Object) (bool, error) {
	return generic.Matches(rq, item, p.MatchingResources, podMatchesScopeFunc)
}

func (podEvaluator) MatchingResources(input []v1.ResourceName) []v1.ResourceName {
	result := quota.Intersection(input, podResources)
	for _, r := range input {
		if quota.ContainsPrefix(podResourcePrefixes, r) {
			result = append(result, r)
		}
		if isExtendedResourceNameForQuota(r) {
			result = append(result, r)
		}
	}
	return result
}

func (podEvaluator) MatchingScopes(item runtime.Object, selectors []v1.ScopedResourceSelectorRequirement) ([]v1.ScopedResourceSelectorRequirement, error) {
	matched := []v1.ScopedResourceSelectorRequirement{}
	for _, s := range selectors {
		ok, err := podMatchesScopeFunc(s, item)
		if err != nil {
			return nil, err
		}
		if ok {
			matched = append(matched, s)
		}
	}
	return matched, nil
}

func (podEvaluator) UncoveredQuotaScopes(limited, matched []v1.ScopedResourceSelectorRequirement) ([]v1.ScopedResourceSelectorRequirement, error) {
	out := []v1.ScopedResourceSelectorRequirement{}
	for _, l := range limited {
		covered := false
		for _, m := range matched {
			if m.ScopeName == l.ScopeName {
				covered = true
				break
			}
		}
		if !covered {
			out = append(out, l)
		}
	}
	return out, nil
}

func (podEvaluator) Usage(item runtime.Object) (v1.ResourceList, error) {
	pod, ok := item.(*v1.Pod)
	if !ok {
		return nil, errors.New("not a pod")
	}
	result := v1.ResourceList{podObjectCountName: *resource.NewQuantity(1, resource.DecimalSI)}
	if pod.Status.Phase == v1.PodSucceeded || pod.Status.Phase == v1.PodFailed {
		return result, nil
	}
	opts := resourcehelper.PodResourcesOptions{UseStatusResources: true}
	requests := resourcehelper.PodRequests(pod, opts)
	limits := resourcehelper.PodLimits(pod, opts)
	return quota.Add(result, podComputeUsageHelper(requests, limits)), nil
}

func (podEvaluator) UsageStats(quota.UsageStatsOptions) (quota.UsageStats, error) {
	return quota.UsageStats{}, errors.New("usage stats are not computed here: the quotas carry status.used")
}

func (podEvaluator) Constraints(required []v1.ResourceName, item runtime.Object) error {
	pod, ok := item.(*v1.Pod)
	if !ok {
		return errors.New("not a pod")
	}
	requiredSet := quota.ToSet(required).Intersection(validationSet)
	missing := map[string]sets.String{}
	check := func(c *v1.Container) {
		usage := podComputeUsageHelper(c.Resources.Requests, c.Resources.Limits)
		have := quota.ToSet(quota.ResourceNames(usage))
		if !have.Equal(requiredSet) {
			for _, diff := range requiredSet.Difference(have).List() {
				if _, ok := missing[diff]; !ok {
					missing[diff] = sets.NewString(c.Name)
				} else {
					missing[diff].Insert(c.Name)
				}
			}
		}
	}
	for i := range pod.Spec.Containers {
		check(&pod.Spec.Containers[i])
	}
	for i := range pod.Spec.InitContainers {
		check(&pod.Spec.InitContainers[i])
	}
	if len(missing) == 0 {
		return nil
	}
	names := make([]string, 0, len(missing))
	for r := range missing {
		names = append(names, r)
	}
	sort.Strings(names)
	msgs := make([]string, 0, len(names))
	for _, r := range names {
		msgs = append(msgs, fmt.Sprintf("%s for: %s", r, strings.Join(missing[r].List(), ",")))
	}
	return fmt.Errorf("must specify %s", strings.Join(msgs, "; "))
}

func isExtendedResourceNameForQuota(name v1.ResourceName) bool {
	return !isNativeResource(name) && strings.HasPrefix(string(name), v1.DefaultResourceRequestsPrefix)
}

func podComputeUsageHelper(requests, limits v1.ResourceList) v1.ResourceList {
	result := v1.ResourceList{v1.ResourcePods: resource.MustParse("1")}
	if r, ok := requests[v1.ResourceCPU]; ok {
		result[v1.ResourceCPU] = r
		result[v1.ResourceRequestsCPU] = r
	}
	if l, ok := limits[v1.ResourceCPU]; ok {
		result[v1.ResourceLimitsCPU] = l
	}
	if r, ok := requests[v1.ResourceMemory]; ok {
		result[v1.ResourceMemory] = r
		result[v1.ResourceRequestsMemory] = r
	}
	if l, ok := limits[v1.ResourceMemory]; ok {
		result[v1.ResourceLimitsMemory] = l
	}
	if r, ok := requests[v1.ResourceEphemeralStorage]; ok {
		result[v1.ResourceEphemeralStorage] = r
		result[v1.ResourceRequestsEphemeralStorage] = r
	}
	if l, ok := limits[v1.ResourceEphemeralStorage]; ok {
		result[v1.ResourceLimitsEphemeralStorage] = l
	}
	for name, r := range requests {
		if quota.ContainsPrefix(requestedResourcePrefixes, name) {
			result[name] = r
			result[v1.ResourceName(v1.DefaultResourceRequestsPrefix+string(name))] = r
		}
		if isExtendedResourceName(name) {
			result[v1.ResourceName(v1.DefaultResourceRequestsPrefix+string(name))] = r
		}
	}
	return result
}

// podMatchesScopeFunc: Terminating, NotTerminating, BestEffort, NotBestEffort (PriorityClass and
// CrossNamespacePodAffinity are not exercised: launcher pods carry neither).
func podMatchesScopeFunc(selector v1.ScopedResourceSelectorRequirement, object runtime.Object) (bool, error) {
	pod, ok := object.(*v1.Pod)
	if !ok {
		return false, errors.New("not a pod")
	}
	terminating := pod.Spec.ActiveDeadlineSeconds != nil && *pod.Spec.ActiveDeadlineSeconds >= 0
	switch selector.ScopeName {
	case v1.ResourceQuotaScopeTerminating:
		return terminating, nil
	case v1.ResourceQuotaScopeNotTerminating:
		return !terminating, nil
	case v1.ResourceQuotaScopeBestEffort:
		return isBestEffort(pod), nil
	case v1.ResourceQuotaScopeNotBestEffort:
		return !isBestEffort(pod), nil
	case v1.ResourceQuotaScopePriorityClass:
		if selector.Operator == v1.ScopeSelectorOpExists {
			return pod.Spec.PriorityClassName != "", nil
		}
		return false, fmt.Errorf("scope %s with operator %s is not modelled", selector.ScopeName, selector.Operator)
	}
	return false, nil
}

// isBestEffort: pkg/apis/core/v1/helper/qos GetPodQOS, without pod-level resources: no container
// requests or limits any cpu or memory.
func isBestEffort(pod *v1.Pod) bool {
	for _, cs := range [][]v1.Container{pod.Spec.Containers, pod.Spec.InitContainers} {
		for _, c := range cs {
			for _, rl := range []v1.ResourceList{c.Resources.Requests, c.Resources.Limits} {
				for _, name := range []v1.ResourceName{v1.ResourceCPU, v1.ResourceMemory} {
					if q, ok := rl[name]; ok && q.Sign() > 0 {
						return false
					}
				}
			}
		}
	}
	return true
}

func runQuota(req *request) (map[string]any, error) {
	if len(req.Pod) == 0 {
		return nil, errors.New("quota: missing pod")
	}
	pod := &v1.Pod{}
	if err := decode(req.Pod, pod); err != nil {
		return nil, fmt.Errorf("quota: pod: %w", err)
	}
	setDefaultsPod(pod)
	if pod.Namespace == "" {
		pod.Namespace = "default"
	}
	var quotas []v1.ResourceQuota
	for i, raw := range req.Quotas {
		q := v1.ResourceQuota{}
		if err := decode(raw, &q); err != nil {
			return nil, fmt.Errorf("quota: quotas[%d]: %w", i, err)
		}
		if q.Namespace != "" && q.Namespace != pod.Namespace {
			continue // the admission plugin lists the quotas of the pod's namespace
		}
		if q.Status.Hard == nil {
			q.Status.Hard = q.Spec.Hard.DeepCopy()
		}
		quotas = append(quotas, q)
	}
	attrs := admission.NewAttributesRecord(pod, nil, v1.SchemeGroupVersion.WithKind("Pod"), pod.Namespace, pod.Name,
		v1.SchemeGroupVersion.WithResource("pods"), "", admission.Create, &metav1.CreateOptions{}, false, nil)
	updated, err := resourcequota.CheckRequest(quotas, attrs, podEvaluator{}, nil)
	if err != nil {
		return map[string]any{"allowed": false, "message": err.Error()}, nil
	}
	used := map[string]map[string]string{}
	for _, q := range updated {
		used[q.Name] = resourceListJSON(q.Status.Used)
	}
	return map[string]any{"allowed": true, "used": used}, nil
}
