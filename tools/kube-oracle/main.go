// kube-oracle answers, one JSON line per JSON line on stdin, two questions the way Kubernetes
// v1.36 answers them:
//
//   - mode "fit": does a pod fit each node, as kube-scheduler's filter plugins decide
//     (NodeUnschedulable, TaintToleration, NodeAffinity, NodeResourcesFit), with the pod's
//     effective requests computed by k8s.io/component-helpers/resource;
//   - mode "vap": how kube-apiserver's ValidatingAdmissionPolicy plugin
//     (k8s.io/apiserver/pkg/admission/plugin/policy/validating) judges a request, and mode
//     "vap-typecheck": the type-checking warnings the policy status controller stores.
//
// It is built from Debian's golang-k8s-* source packages (0.36.4); see README.md for what is
// library code and what is transcribed from k8s.io/kubernetes (not packaged in Debian).
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"runtime/debug"
	"sort"
	"strings"
	"time"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/admission/initializer"
	plugincel "k8s.io/apiserver/pkg/admission/plugin/cel"
	"k8s.io/apiserver/pkg/admission/plugin/policy/validating"
	"k8s.io/apiserver/pkg/admission/plugin/webhook/matchconditions"
	auditinternal "k8s.io/apiserver/pkg/apis/audit"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/environment"
	"k8s.io/apiserver/pkg/cel/openapi/resolver"
	"k8s.io/apiserver/pkg/endpoints/filters"
	"k8s.io/apiserver/pkg/util/compatibility"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	baseversion "k8s.io/component-base/version"
	resourcehelper "k8s.io/component-helpers/resource"
	corev1helpers "k8s.io/component-helpers/scheduling/corev1"
	"k8s.io/component-helpers/scheduling/corev1/nodeaffinity"
	"k8s.io/klog/v2"
	"k8s.io/kube-openapi/pkg/validation/spec"
	sigsjson "sigs.k8s.io/json"
)

// ---------------------------------------------------------------------------------------------
// protocol

type request struct {
	ID   string `json:"id"`
	Mode string `json:"mode"`

	// fit
	Pod   json.RawMessage   `json:"pod"`
	Nodes []json.RawMessage `json:"nodes"`
	Pods  []json.RawMessage `json:"pods"`

	// place: pods to schedule, in order (with nodes and pods as in fit)
	Queue []json.RawMessage `json:"queue"`

	// quota: the namespace's ResourceQuotas (with status.used), and pod
	Quotas []json.RawMessage `json:"quotas"`

	// vap, vap-typecheck
	Policies   []json.RawMessage `json:"policies"`
	Bindings   []json.RawMessage `json:"bindings"`
	Params     []json.RawMessage `json:"params"`
	Namespaces []json.RawMessage `json:"namespaces"`
	Resources  []resourceDecl    `json:"resources"`
	Request    vapRequestInfo    `json:"request"`
	Object     json.RawMessage   `json:"object"`
	OldObject  json.RawMessage   `json:"oldObject"`
	Policy     json.RawMessage   `json:"policy"`
	Schemas    []schemaDecl      `json:"schemas"`
}

func main() {
	showVersion := flag.Bool("version", false, "print the Kubernetes library version and exit")
	flag.Parse()
	if *showVersion {
		fmt.Println(baseversion.Get().GitVersion)
		return
	}
	quietKlog()

	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	for {
		line, err := in.ReadBytes('\n')
		if len(strings.TrimSpace(string(line))) > 0 {
			ans := handle(line)
			if e := enc.Encode(ans); e != nil {
				_ = enc.Encode(map[string]any{"error": "cannot encode answer: " + e.Error()})
			}
			out.Flush()
		}
		if err == io.EOF {
			return
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "read:", err)
			os.Exit(1)
		}
	}
}

// quietKlog keeps klog (used by the apiserver libraries) off stdout and, unless
// KUBE_ORACLE_DEBUG is set, off stderr too.
func quietKlog() {
	fs := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(fs)
	if os.Getenv("KUBE_ORACLE_DEBUG") != "" {
		_ = fs.Set("v", os.Getenv("KUBE_ORACLE_DEBUG"))
		return
	}
	_ = fs.Set("logtostderr", "false")
	_ = fs.Set("alsologtostderr", "false")
	_ = fs.Set("stderrthreshold", "FATAL")
	klog.SetOutput(io.Discard)
}

func handle(line []byte) (ans map[string]any) {
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		return map[string]any{"error": "bad request line: " + err.Error()}
	}
	defer func() {
		if r := recover(); r != nil {
			ans = map[string]any{"id": req.ID, "mode": req.Mode, "error": fmt.Sprintf("panic: %v", r), "stack": string(debug.Stack())}
		}
	}()
	var err error
	switch req.Mode {
	case "fit":
		ans, err = runFit(&req)
	case "place":
		ans, err = runPlace(&req)
	case "quota":
		ans, err = runQuota(&req)
	case "vap":
		ans, err = runVAP(&req)
	case "vap-typecheck":
		ans, err = runTypecheck(&req)
	default:
		err = fmt.Errorf("unknown mode %q (fit, place, quota, vap, vap-typecheck)", req.Mode)
	}
	if ans == nil {
		ans = map[string]any{}
	}
	ans["id"] = req.ID
	ans["mode"] = req.Mode
	if err != nil {
		ans["error"] = err.Error()
	}
	return ans
}

// decode decodes a typed Kubernetes object the way the apiserver's JSON serializer does
// (case-sensitive field names).
func decode(raw json.RawMessage, into any) error {
	return sigsjson.UnmarshalCaseSensitivePreserveInts(raw, into)
}

// ---------------------------------------------------------------------------------------------
// mode "fit"

type filterResult struct {
	Plugin  string   `json:"plugin"`
	Reasons []string `json:"reasons"`
	Skipped bool     `json:"skipped,omitempty"`
}

type nodeFit struct {
	Name             string         `json:"name"`
	Fits             bool           `json:"fits"`
	Plugin           string         `json:"plugin,omitempty"`
	Reasons          []string       `json:"reasons"`
	Filters          []filterResult `json:"filters"`
	UntoleratedTaint *v1.Taint      `json:"untoleratedTaint,omitempty"`
	PodCount         int            `json:"podCount"`
	Requested        map[string]any `json:"requested"`
	Allocatable      map[string]any `json:"allocatable"`
}

const (
	// kube-scheduler v1.36 reason strings (see the plugin files named in README.md).
	errReasonUnschedulable  = "node(s) were unschedulable"                        // nodeunschedulable/node_unschedulable.go ErrReasonUnschedulable
	errReasonUntolerated    = "node(s) had untolerated taint(s)"                  // tainttoleration/taint_toleration.go Filter
	errReasonPod            = "node(s) didn't match Pod's node affinity/selector" // nodeaffinity/node_affinity.go ErrReasonPod
	errReasonConflict       = "pod affinity terms conflict"                       // nodeaffinity/node_affinity.go errReasonConflict
	errNoNodesAvailable     = "no nodes available to schedule pods"               // schedule_one.go ErrNoNodesAvailable
	noNodeAvailableMsg      = "0/%v nodes are available"                          // framework/types.go NoNodeAvailableMsg
	taintNodeUnschedulable  = v1.TaintNodeUnschedulable
	enableComparisonTaintOp = false // TaintTolerationComparisonOperators: alpha, off by default in v1.36
)

func runFit(req *request) (map[string]any, error) {
	if len(req.Pod) == 0 {
		return nil, errors.New("fit: missing pod")
	}
	pod := &v1.Pod{}
	if err := decode(req.Pod, pod); err != nil {
		return nil, fmt.Errorf("fit: pod: %w", err)
	}
	setDefaultsPod(pod)
	nodes := make([]*v1.Node, 0, len(req.Nodes))
	for i, raw := range req.Nodes {
		n := &v1.Node{}
		if err := decode(raw, n); err != nil {
			return nil, fmt.Errorf("fit: nodes[%d]: %w", i, err)
		}
		setDefaultsNode(n)
		nodes = append(nodes, n)
	}
	podsByNode := map[string][]*v1.Pod{}
	for i, raw := range req.Pods {
		p := &v1.Pod{}
		if err := decode(raw, p); err != nil {
			return nil, fmt.Errorf("fit: pods[%d]: %w", i, err)
		}
		setDefaultsPod(p)
		// kube-scheduler's pod informer skips terminal pods (field selector
		// status.phase!=Succeeded,status.phase!=Failed) and caches only assigned pods.
		if p.Spec.NodeName == "" || p.Status.Phase == v1.PodSucceeded || p.Status.Phase == v1.PodFailed {
			continue
		}
		podsByNode[p.Spec.NodeName] = append(podsByNode[p.Spec.NodeName], p)
	}

	// NodeResourcesFit PreFilter: computePodResourceRequest (PodLevelResources is on in v1.36).
	podReqList := resourcehelper.PodRequests(pod, resourcehelper.PodResourcesOptions{SkipPodLevelResources: false})
	podRequest := &schedResource{}
	podRequest.SetMaxResource(podReqList)

	// NodeAffinity PreFilter.
	naSkip, naNodeNames, naStatus := nodeAffinityPreFilter(pod)
	required := nodeaffinity.GetRequiredNodeAffinity(pod)

	results := make([]nodeFit, 0, len(nodes))
	anyFits := false
	for _, node := range nodes {
		ni := newNodeInfo(node, podsByNode[node.Name])
		r := nodeFit{Name: node.Name, Reasons: []string{}, PodCount: len(ni.Pods), Requested: ni.Requested.toJSON(), Allocatable: ni.Allocatable.toJSON()}

		// Each filter on its own, for diagnosis; the scheduler's verdict follows below.
		unsched := filterNodeUnschedulable(pod, node)
		taint, untol := filterTaintToleration(pod, node)
		var affinity []string
		if !naSkip {
			if match, _ := required.Match(node); !match {
				affinity = []string{errReasonPod}
			}
		}
		fit := fitsRequest(podRequest, ni)
		r.Filters = []filterResult{
			{Plugin: "NodeUnschedulable", Reasons: nonNil(unsched)},
			{Plugin: "TaintToleration", Reasons: nonNil(untol)},
			{Plugin: "NodeAffinity", Reasons: nonNil(affinity), Skipped: naSkip},
			{Plugin: "NodeResourcesFit", Reasons: nonNil(fit)},
		}
		if len(untol) > 0 {
			t := taint
			r.UntoleratedTaint = &t
		}

		// The scheduler: PreFilter results first, then the filters in the default profile's
		// order; the first plugin that rejects the node gives its reasons.
		switch {
		case naStatus != "":
			r.Plugin, r.Reasons = "NodeAffinity", []string{naStatus}
		case naNodeNames != nil && !naNodeNames.Has(node.Name):
			r.Plugin, r.Reasons = "NodeAffinity", []string{"node(s) didn't satisfy plugin(s) [NodeAffinity]"}
		default:
			for _, f := range r.Filters {
				if len(f.Reasons) > 0 {
					r.Plugin, r.Reasons = f.Plugin, f.Reasons
					break
				}
			}
		}
		r.Fits = len(r.Reasons) == 0
		anyFits = anyFits || r.Fits
		results = append(results, r)
	}

	ans := map[string]any{
		"nodes":       results,
		"podRequests": resourceListJSON(podReqList),
		"schedulable": anyFits,
	}
	if !anyFits {
		ans["message"] = fitErrorMessage(results, naStatus)
	}
	return ans, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Transcribed from pkg/scheduler/framework/types.go (FitError.Error, v1.36), without the
// PostFilter (preemption) part that kube-scheduler appends.
func fitErrorMessage(results []nodeFit, preFilterMsg string) string {
	if len(results) == 0 {
		return errNoNodesAvailable
	}
	msg := fmt.Sprintf(noNodeAvailableMsg+":", len(results))
	if preFilterMsg != "" {
		return msg + fmt.Sprintf(" %v.", preFilterMsg)
	}
	reasons := map[string]int{}
	for _, r := range results {
		for _, reason := range r.Reasons {
			reasons[reason]++
		}
	}
	var reasonStrings []string
	for k, v := range reasons {
		reasonStrings = append(reasonStrings, fmt.Sprintf("%v %v", v, k))
	}
	sort.Strings(reasonStrings)
	if len(reasonStrings) != 0 {
		msg += fmt.Sprintf(" %v.", strings.Join(reasonStrings, ", "))
	}
	return msg
}

// Transcribed from pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go Filter.
func filterNodeUnschedulable(pod *v1.Pod, node *v1.Node) []string {
	if !node.Spec.Unschedulable {
		return nil
	}
	// If pod tolerate unschedulable taint, it's also tolerate `node.Spec.Unschedulable`.
	podToleratesUnschedulable := corev1helpers.TolerationsTolerateTaint(klog.Background(), pod.Spec.Tolerations, &v1.Taint{
		Key:    taintNodeUnschedulable,
		Effect: v1.TaintEffectNoSchedule,
	}, enableComparisonTaintOp)
	if !podToleratesUnschedulable {
		return []string{errReasonUnschedulable}
	}
	return nil
}

// Transcribed from pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go Filter;
// the matching itself is k8s.io/component-helpers FindMatchingUntoleratedTaint.
func filterTaintToleration(pod *v1.Pod, node *v1.Node) (v1.Taint, []string) {
	taint, isUntolerated := corev1helpers.FindMatchingUntoleratedTaint(klog.Background(), node.Spec.Taints, pod.Spec.Tolerations,
		doNotScheduleTaintsFilterFunc(), enableComparisonTaintOp)
	if !isUntolerated {
		return taint, nil
	}
	return taint, []string{errReasonUntolerated}
}

// Transcribed from pkg/scheduler/framework/plugins/helper/taint.go.
func doNotScheduleTaintsFilterFunc() func(t *v1.Taint) bool {
	return func(t *v1.Taint) bool {
		// PodToleratesNodeTaints is only interested in NoSchedule and NoExecute taints.
		return t.Effect == v1.TaintEffectNoSchedule || t.Effect == v1.TaintEffectNoExecute
	}
}

// Transcribed from pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go PreFilter
// (default profile: no addedAffinity). Returns skip (Filter not run), the node-name set of a
// PreFilterResult (nil: all nodes) and a rejecting status message.
func nodeAffinityPreFilter(pod *v1.Pod) (bool, sets.Set[string], string) {
	affinity := pod.Spec.Affinity
	noNodeAffinity := affinity == nil ||
		affinity.NodeAffinity == nil ||
		affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil
	if noNodeAffinity && pod.Spec.NodeSelector == nil {
		return true, nil, ""
	}
	if noNodeAffinity || len(affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms) == 0 {
		return false, nil, ""
	}
	terms := affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms
	var nodeNames sets.Set[string]
	for _, t := range terms {
		var termNodeNames sets.Set[string]
		for _, r := range t.MatchFields {
			if r.Key == metav1.ObjectNameField && r.Operator == v1.NodeSelectorOpIn {
				s := sets.New(r.Values...)
				if termNodeNames == nil {
					termNodeNames = s
				} else {
					termNodeNames = termNodeNames.Intersection(s)
				}
			}
		}
		if termNodeNames == nil {
			return false, nil, ""
		}
		nodeNames = nodeNames.Union(termNodeNames)
	}
	if nodeNames != nil && len(nodeNames) == 0 {
		return false, nil, errReasonConflict
	} else if len(nodeNames) > 0 {
		return false, nodeNames, ""
	}
	return false, nil, ""
}

// schedResource is pkg/scheduler/framework/types.go Resource (transcribed).
type schedResource struct {
	MilliCPU         int64
	Memory           int64
	EphemeralStorage int64
	AllowedPodNumber int
	ScalarResources  map[v1.ResourceName]int64
}

func (r *schedResource) Add(rl v1.ResourceList) {
	for rName, rQuant := range rl {
		switch rName {
		case v1.ResourceCPU:
			r.MilliCPU += rQuant.MilliValue()
		case v1.ResourceMemory:
			r.Memory += rQuant.Value()
		case v1.ResourcePods:
			r.AllowedPodNumber += int(rQuant.Value())
		case v1.ResourceEphemeralStorage:
			r.EphemeralStorage += rQuant.Value()
		default:
			if isScalarResourceName(rName) {
				r.SetScalar(rName, r.ScalarResources[rName]+rQuant.Value())
			}
		}
	}
}

func (r *schedResource) SetScalar(name v1.ResourceName, quantity int64) {
	if r.ScalarResources == nil {
		r.ScalarResources = map[v1.ResourceName]int64{}
	}
	r.ScalarResources[name] = quantity
}

func (r *schedResource) SetMaxResource(rl v1.ResourceList) {
	for rName, rQuantity := range rl {
		switch rName {
		case v1.ResourceMemory:
			r.Memory = max(r.Memory, rQuantity.Value())
		case v1.ResourceCPU:
			r.MilliCPU = max(r.MilliCPU, rQuantity.MilliValue())
		case v1.ResourceEphemeralStorage:
			r.EphemeralStorage = max(r.EphemeralStorage, rQuantity.Value())
		default:
			if isScalarResourceName(rName) {
				r.SetScalar(rName, max(r.ScalarResources[rName], rQuantity.Value()))
			}
		}
	}
}

func (r *schedResource) toJSON() map[string]any {
	m := map[string]any{"milliCPU": r.MilliCPU, "memory": r.Memory, "ephemeralStorage": r.EphemeralStorage}
	if r.AllowedPodNumber != 0 {
		m["allowedPodNumber"] = r.AllowedPodNumber
	}
	sc := map[string]int64{}
	for k, v := range r.ScalarResources {
		sc[string(k)] = v
	}
	m["scalarResources"] = sc
	return m
}

type nodeInfo struct {
	Node        *v1.Node
	Pods        []*v1.Pod
	Requested   *schedResource
	Allocatable *schedResource
}

// newNodeInfo follows NodeInfo.SetNode / AddPod / PodInfo.CalculateResource
// (pkg/scheduler/framework/types.go): requests of the pods already on the node come from
// k8s.io/component-helpers PodRequests with UseStatusResources (InPlacePodVerticalScaling is GA).
func newNodeInfo(node *v1.Node, pods []*v1.Pod) *nodeInfo {
	ni := &nodeInfo{Node: node, Pods: pods, Requested: &schedResource{}, Allocatable: &schedResource{}}
	ni.Allocatable.Add(node.Status.Allocatable)
	for _, p := range pods {
		requests := resourcehelper.PodRequests(p, resourcehelper.PodResourcesOptions{
			UseStatusResources:    true,
			SkipPodLevelResources: false,
		})
		var res schedResource
		res.Add(requests)
		ni.Requested.MilliCPU += res.MilliCPU
		ni.Requested.Memory += res.Memory
		ni.Requested.EphemeralStorage += res.EphemeralStorage
		for rName, rQuant := range res.ScalarResources {
			ni.Requested.SetScalar(rName, ni.Requested.ScalarResources[rName]+rQuant)
		}
	}
	return ni
}

// Transcribed from pkg/scheduler/framework/plugins/noderesources/fit.go fitsRequest (v1.36),
// with no ignored resources (default NodeResourcesFitArgs) and no DeviceClass that maps an
// extended resource (so shouldDelegateResourceToDRA is false). Extended-resource reasons are
// sorted by name here; the scheduler emits them in Go map order.
func fitsRequest(podRequest *schedResource, ni *nodeInfo) []string {
	var reasons []string
	allowedPodNumber := ni.Allocatable.AllowedPodNumber
	if len(ni.Pods)+1 > allowedPodNumber {
		reasons = append(reasons, "Too many pods")
	}
	if podRequest.MilliCPU == 0 &&
		podRequest.Memory == 0 &&
		podRequest.EphemeralStorage == 0 &&
		len(podRequest.ScalarResources) == 0 {
		return reasons
	}
	if podRequest.MilliCPU > 0 && podRequest.MilliCPU > (ni.Allocatable.MilliCPU-ni.Requested.MilliCPU) {
		reasons = append(reasons, "Insufficient cpu")
	}
	if podRequest.Memory > 0 && podRequest.Memory > (ni.Allocatable.Memory-ni.Requested.Memory) {
		reasons = append(reasons, "Insufficient memory")
	}
	if podRequest.EphemeralStorage > 0 &&
		podRequest.EphemeralStorage > (ni.Allocatable.EphemeralStorage-ni.Requested.EphemeralStorage) {
		reasons = append(reasons, "Insufficient ephemeral-storage")
	}
	names := make([]string, 0, len(podRequest.ScalarResources))
	for rName := range podRequest.ScalarResources {
		names = append(names, string(rName))
	}
	sort.Strings(names)
	for _, n := range names {
		rName := v1.ResourceName(n)
		rQuant := podRequest.ScalarResources[rName]
		if rQuant == 0 {
			continue
		}
		if rQuant > (ni.Allocatable.ScalarResources[rName] - ni.Requested.ScalarResources[rName]) {
			reasons = append(reasons, fmt.Sprintf("Insufficient %v", rName))
		}
	}
	return reasons
}

// Transcribed from pkg/scheduler/util/utils.go IsScalarResourceName and
// pkg/apis/core/v1/helper/helpers.go.
func isScalarResourceName(name v1.ResourceName) bool {
	return isExtendedResourceName(name) || isHugePageResourceName(name) ||
		isPrefixedNativeResource(name) || isAttachableVolumeResourceName(name)
}

func isExtendedResourceName(name v1.ResourceName) bool {
	if isNativeResource(name) || strings.HasPrefix(string(name), v1.DefaultResourceRequestsPrefix) {
		return false
	}
	// Ensure it satisfies the rules in IsQualifiedName() after converted into quota resource name
	nameForQuota := fmt.Sprintf("%s%s", v1.DefaultResourceRequestsPrefix, string(name))
	if errs := validation.IsQualifiedName(nameForQuota); len(errs) != 0 {
		return false
	}
	return true
}

func isPrefixedNativeResource(name v1.ResourceName) bool {
	return strings.Contains(string(name), v1.ResourceDefaultNamespacePrefix)
}

func isNativeResource(name v1.ResourceName) bool {
	return !strings.Contains(string(name), "/") || isPrefixedNativeResource(name)
}

func isHugePageResourceName(name v1.ResourceName) bool {
	return strings.HasPrefix(string(name), v1.ResourceHugePagesPrefix)
}

func isAttachableVolumeResourceName(name v1.ResourceName) bool {
	return strings.HasPrefix(string(name), v1.ResourceAttachableVolumesPrefix)
}

func resourceListJSON(rl v1.ResourceList) map[string]string {
	m := map[string]string{}
	for k, v := range rl {
		m[string(k)] = v.String()
	}
	return m
}

// --- API defaulting, transcribed from pkg/apis/core/v1/defaults.go (v1.36) -------------------

// setDefaultsPod applies the defaults that matter for scheduling: SetDefaults_Pod (requests
// default to limits for containers and init containers; pod-level requests, PodLevelResources
// being on) and SetDefaults_ResourceList (quantities rounded up to milli units) on every
// resource list of the pod.
func setDefaultsPod(pod *v1.Pod) {
	for i := range pod.Spec.Containers {
		defaultRequestsFromLimits(&pod.Spec.Containers[i].Resources)
	}
	for i := range pod.Spec.InitContainers {
		defaultRequestsFromLimits(&pod.Spec.InitContainers[i].Resources)
	}
	defaultPodRequests(pod)
	roundUp := func(rl v1.ResourceList) {
		for key, val := range rl {
			val.RoundUp(-3)
			rl[key] = val
		}
	}
	for i := range pod.Spec.Containers {
		roundUp(pod.Spec.Containers[i].Resources.Limits)
		roundUp(pod.Spec.Containers[i].Resources.Requests)
	}
	for i := range pod.Spec.InitContainers {
		roundUp(pod.Spec.InitContainers[i].Resources.Limits)
		roundUp(pod.Spec.InitContainers[i].Resources.Requests)
	}
	roundUp(pod.Spec.Overhead)
	if pod.Spec.Resources != nil {
		roundUp(pod.Spec.Resources.Limits)
		roundUp(pod.Spec.Resources.Requests)
	}
}

func defaultRequestsFromLimits(r *v1.ResourceRequirements) {
	if r.Limits != nil {
		if r.Requests == nil {
			r.Requests = make(v1.ResourceList)
		}
		for key, value := range r.Limits {
			if _, exists := r.Requests[key]; !exists {
				r.Requests[key] = value.DeepCopy()
			}
		}
	}
}

// defaultPodRequests: pod-level requests default, when pod-level limits are set (second-hand
// transcription, see README.md).
func defaultPodRequests(obj *v1.Pod) {
	if obj.Spec.Resources == nil || len(obj.Spec.Resources.Limits) == 0 {
		return
	}
	podReqs := obj.Spec.Resources.Requests
	if podReqs == nil {
		podReqs = make(v1.ResourceList)
	}
	aggrCtrReqs := resourcehelper.AggregateContainerRequests(obj, resourcehelper.PodResourcesOptions{})
	for key, aggrCtrLim := range aggrCtrReqs {
		if _, exists := podReqs[key]; !exists && resourcehelper.IsSupportedPodLevelResource(key) && strings.HasPrefix(string(key), v1.ResourceHugePagesPrefix) {
			podReqs[key] = aggrCtrLim.DeepCopy()
		}
	}
	for key, podLim := range obj.Spec.Resources.Limits {
		if _, exists := podReqs[key]; !exists && resourcehelper.IsSupportedPodLevelResource(key) {
			podReqs[key] = podLim.DeepCopy()
		}
	}
	if len(podReqs) > 0 {
		obj.Spec.Resources.Requests = podReqs
	}
}

// setDefaultsNode: SetDefaults_NodeStatus (allocatable defaults to capacity) and
// SetDefaults_ResourceList.
func setDefaultsNode(n *v1.Node) {
	if n.Status.Allocatable == nil && n.Status.Capacity != nil {
		n.Status.Allocatable = make(v1.ResourceList, len(n.Status.Capacity))
		for key, value := range n.Status.Capacity {
			n.Status.Allocatable[key] = value.DeepCopy()
		}
	}
	for _, rl := range []v1.ResourceList{n.Status.Capacity, n.Status.Allocatable} {
		for key, val := range rl {
			val.RoundUp(-3)
			rl[key] = val
		}
	}
}

// ---------------------------------------------------------------------------------------------
// mode "vap"

type vapRequestInfo struct {
	Operation string `json:"operation"`
	UserInfo  struct {
		Username string              `json:"username"`
		UID      string              `json:"uid"`
		Groups   []string            `json:"groups"`
		Extra    map[string][]string `json:"extra"`
	} `json:"userInfo"`
	Namespace   string `json:"namespace"`
	Name        string `json:"name"`
	SubResource string `json:"subResource"`
	DryRun      bool   `json:"dryRun"`
	// Resource overrides the resource found through the RESTMapper ("group/version/resource").
	Resource string `json:"resource"`
}

// resourceDecl adds a kind to the oracle's RESTMapper (a CRD the cluster would have).
type resourceDecl struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Resource   string `json:"resource"`
	Namespaced bool   `json:"namespaced"`
}

// Kinds of KubeVirt and CDI the RESTMapper knows without being told (plural, namespaced).
var builtinCRDs = []resourceDecl{
	{"kubevirt.io/v1", "VirtualMachine", "virtualmachines", true},
	{"kubevirt.io/v1", "VirtualMachineInstance", "virtualmachineinstances", true},
	{"kubevirt.io/v1", "VirtualMachineInstanceMigration", "virtualmachineinstancemigrations", true},
	{"kubevirt.io/v1", "VirtualMachineInstanceReplicaSet", "virtualmachineinstancereplicasets", true},
	{"kubevirt.io/v1", "VirtualMachineInstancePreset", "virtualmachineinstancepresets", true},
	{"kubevirt.io/v1", "KubeVirt", "kubevirts", true},
	{"instancetype.kubevirt.io/v1beta1", "VirtualMachineInstancetype", "virtualmachineinstancetypes", true},
	{"instancetype.kubevirt.io/v1beta1", "VirtualMachineClusterInstancetype", "virtualmachineclusterinstancetypes", false},
	{"instancetype.kubevirt.io/v1beta1", "VirtualMachinePreference", "virtualmachinepreferences", true},
	{"instancetype.kubevirt.io/v1beta1", "VirtualMachineClusterPreference", "virtualmachineclusterpreferences", false},
	{"cdi.kubevirt.io/v1beta1", "DataVolume", "datavolumes", true},
	{"cdi.kubevirt.io/v1beta1", "DataSource", "datasources", true},
}

// Cluster-scoped kinds among those of k8s.io/client-go's scheme (everything else is namespaced).
var clusterScopedBuiltins = sets.New(
	"Namespace", "Node", "PersistentVolume", "ComponentStatus",
	"ClusterRole", "ClusterRoleBinding", "StorageClass", "CSIDriver", "CSINode", "VolumeAttachment",
	"VolumeAttributesClass", "PriorityClass", "RuntimeClass", "MutatingWebhookConfiguration",
	"ValidatingWebhookConfiguration", "ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding",
	"MutatingAdmissionPolicy", "MutatingAdmissionPolicyBinding", "CertificateSigningRequest",
	"ClusterTrustBundle", "FlowSchema", "PriorityLevelConfiguration", "IngressClass", "TokenReview",
	"SubjectAccessReview", "SelfSubjectAccessReview", "SelfSubjectRulesReview", "SelfSubjectReview",
	"DeviceClass", "ResourceSlice", "DeviceTaintRule", "StorageVersion", "StorageVersionMigration",
	"IPAddress", "ServiceCIDR",
)

type oracleMapper struct {
	*meta.DefaultRESTMapper
	custom map[schema.GroupVersionKind]schema.GroupVersionResource // kinds served by the dynamic client
}

func newRESTMapper(extra []resourceDecl) (*oracleMapper, error) {
	m := &oracleMapper{DefaultRESTMapper: meta.NewDefaultRESTMapper(nil), custom: map[schema.GroupVersionKind]schema.GroupVersionResource{}}
	for gvk := range clientgoscheme.Scheme.AllKnownTypes() {
		if gvk.Version == runtime.APIVersionInternal || strings.HasSuffix(gvk.Kind, "List") || strings.HasSuffix(gvk.Kind, "Options") ||
			gvk.Kind == "WatchEvent" || gvk.Kind == "Status" || gvk.Kind == "APIVersions" || gvk.Kind == "APIGroupList" ||
			gvk.Kind == "APIGroup" || gvk.Kind == "APIResourceList" {
			continue
		}
		scope := meta.RESTScopeNamespace
		if clusterScopedBuiltins.Has(gvk.Kind) {
			scope = meta.RESTScopeRoot
		}
		m.Add(gvk, scope)
	}
	for _, d := range append(append([]resourceDecl{}, builtinCRDs...), extra...) {
		if err := m.addDecl(d); err != nil {
			return nil, err
		}
	}
	return m, nil
}

func (m *oracleMapper) addDecl(d resourceDecl) error {
	gv, err := schema.ParseGroupVersion(d.APIVersion)
	if err != nil {
		return fmt.Errorf("resources: %w", err)
	}
	gvk := gv.WithKind(d.Kind)
	plural, singular := meta.UnsafeGuessKindToResource(gvk)
	if d.Resource != "" {
		plural = gv.WithResource(d.Resource)
	}
	scope := meta.RESTScopeRoot
	if d.Namespaced {
		scope = meta.RESTScopeNamespace
	}
	m.AddSpecific(gvk, plural, singular, scope)
	m.custom[gvk] = plural
	return nil
}

func isBuiltinKind(gvk schema.GroupVersionKind) bool {
	return clientgoscheme.Scheme.Recognizes(gvk)
}

// decodeObject decodes an object of the request: a built-in kind into its typed Go struct (as
// the apiserver hands typed objects to admission), anything else into Unstructured (as for
// custom resources).
func decodeObject(raw json.RawMessage) (runtime.Object, schema.GroupVersionKind, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, schema.GroupVersionKind{}, nil
	}
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(raw); err != nil {
		return nil, schema.GroupVersionKind{}, err
	}
	gvk := u.GroupVersionKind()
	if isBuiltinKind(gvk) {
		obj, err := clientgoscheme.Scheme.New(gvk)
		if err != nil {
			return nil, gvk, err
		}
		if err := decode(raw, obj); err != nil {
			return nil, gvk, err
		}
		obj.GetObjectKind().SetGroupVersionKind(gvk)
		return obj, gvk, nil
	}
	return u, gvk, nil
}

// annotatingAttributes records the audit annotations admission plugins add (kube-apiserver's
// audit layer collects them from the same AddAnnotation calls).
type annotatingAttributes struct {
	admission.Attributes
	annotations map[string]string
}

func (a *annotatingAttributes) AddAnnotation(key, value string) error {
	if err := a.Attributes.AddAnnotation(key, value); err != nil {
		return err
	}
	a.annotations[key] = value
	return nil
}

func (a *annotatingAttributes) AddAnnotationWithLevel(key, value string, level auditinternal.Level) error {
	if err := a.Attributes.AddAnnotationWithLevel(key, value, level); err != nil {
		return err
	}
	a.annotations[key] = value
	return nil
}

type allowAll struct{}

func (allowAll) Authorize(context.Context, authorizer.Attributes) (authorizer.Decision, string, error) {
	return authorizer.DecisionAllow, "", nil
}

func runVAP(req *request) (map[string]any, error) {
	ans := map[string]any{}

	mapper, err := newRESTMapper(req.Resources)
	if err != nil {
		return nil, err
	}

	var typedObjects []runtime.Object
	var configErrors []string

	policies := make([]*admissionregistrationv1.ValidatingAdmissionPolicy, 0, len(req.Policies))
	for i, raw := range req.Policies {
		p := &admissionregistrationv1.ValidatingAdmissionPolicy{}
		if err := decode(raw, p); err != nil {
			return nil, fmt.Errorf("policies[%d]: %w", i, err)
		}
		setDefaultsPolicy(p)
		if p.ResourceVersion == "" {
			p.ResourceVersion = "1"
		}
		configErrors = append(configErrors, prefixed("ValidatingAdmissionPolicy", p.Name, validatePolicy(p))...)
		policies = append(policies, p)
		typedObjects = append(typedObjects, p)
	}
	for i, raw := range req.Bindings {
		b := &admissionregistrationv1.ValidatingAdmissionPolicyBinding{}
		if err := decode(raw, b); err != nil {
			return nil, fmt.Errorf("bindings[%d]: %w", i, err)
		}
		setDefaultsBinding(b)
		if b.ResourceVersion == "" {
			b.ResourceVersion = "1"
		}
		configErrors = append(configErrors, prefixed("ValidatingAdmissionPolicyBinding", b.Name, validateBinding(b))...)
		typedObjects = append(typedObjects, b)
	}

	// The object of the request.
	obj, gvk, err := decodeObject(req.Object)
	if err != nil {
		return nil, fmt.Errorf("object: %w", err)
	}
	oldObj, oldGVK, err := decodeObject(req.OldObject)
	if err != nil {
		return nil, fmt.Errorf("oldObject: %w", err)
	}
	if obj == nil && oldObj == nil {
		return nil, errors.New("object and oldObject are both null")
	}
	if obj == nil {
		gvk = oldGVK
	}
	mapping, err := mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	if err != nil {
		return nil, fmt.Errorf("object kind %v: %w (declare it under \"resources\")", gvk, err)
	}
	gvr := mapping.Resource
	if req.Request.Resource != "" {
		parts := strings.Split(req.Request.Resource, "/")
		switch len(parts) {
		case 3:
			gvr = schema.GroupVersionResource{Group: parts[0], Version: parts[1], Resource: parts[2]}
		case 2:
			gvr = schema.GroupVersionResource{Version: parts[0], Resource: parts[1]}
		default:
			return nil, fmt.Errorf("request.resource %q: want group/version/resource", req.Request.Resource)
		}
	}
	namespaced := mapping.Scope.Name() == meta.RESTScopeNameNamespace
	nonNilObj := obj
	if nonNilObj == nil {
		nonNilObj = oldObj
	}
	accessor, err := meta.Accessor(nonNilObj)
	if err != nil {
		return nil, err
	}
	namespace := req.Request.Namespace
	if namespaced {
		if namespace == "" {
			namespace = accessor.GetNamespace()
		}
		if namespace == "" {
			namespace = metav1.NamespaceDefault
		}
		// The apiserver sets an object's empty namespace from the request path.
		for _, o := range []runtime.Object{obj, oldObj} {
			if o == nil {
				continue
			}
			if a, err := meta.Accessor(o); err == nil && a.GetNamespace() == "" {
				a.SetNamespace(namespace)
			}
		}
	} else {
		namespace = ""
	}
	name := req.Request.Name
	if name == "" {
		name = accessor.GetName()
	}

	// Namespaces (defaulted as the apiserver does); the request's own namespace is created
	// when not given (a request into a missing namespace fails before admission).
	seenNS := sets.New[string]()
	for i, raw := range req.Namespaces {
		ns := &v1.Namespace{}
		if err := decode(raw, ns); err != nil {
			return nil, fmt.Errorf("namespaces[%d]: %w", i, err)
		}
		setDefaultsNamespace(ns)
		seenNS.Insert(ns.Name)
		typedObjects = append(typedObjects, ns)
	}
	if namespace != "" && !seenNS.Has(namespace) {
		ns := &v1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace}}
		setDefaultsNamespace(ns)
		typedObjects = append(typedObjects, ns)
	}

	// Params: built-in kinds (ConfigMap...) through the typed client and informer factory,
	// others (custom resources) through the dynamic client, as in kube-apiserver.
	type dynParam struct {
		obj *unstructured.Unstructured
		gvr schema.GroupVersionResource
	}
	var dynParams []dynParam
	for i, raw := range req.Params {
		u := &unstructured.Unstructured{}
		if err := u.UnmarshalJSON(raw); err != nil {
			return nil, fmt.Errorf("params[%d]: %w", i, err)
		}
		pgvk := u.GroupVersionKind()
		if isBuiltinKind(pgvk) {
			o, _, err := decodeObject(raw)
			if err != nil {
				return nil, fmt.Errorf("params[%d]: %w", i, err)
			}
			typedObjects = append(typedObjects, o)
			continue
		}
		if _, ok := mapper.custom[pgvk]; !ok {
			if err := mapper.addDecl(resourceDecl{APIVersion: u.GetAPIVersion(), Kind: u.GetKind(), Namespaced: u.GetNamespace() != ""}); err != nil {
				return nil, fmt.Errorf("params[%d]: %w", i, err)
			}
		}
		if u.GetResourceVersion() == "" {
			u.SetResourceVersion("1")
		}
		dynParams = append(dynParams, dynParam{obj: u, gvr: mapper.custom[pgvk]})
	}

	client := fake.NewSimpleClientset(typedObjects...)
	listKinds := map[schema.GroupVersionResource]string{}
	for gvk, gvr := range mapper.custom {
		listKinds[gvr] = gvk.Kind + "List"
	}
	dynScheme := runtime.NewScheme()
	dynClient := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(dynScheme, listKinds)
	for _, p := range dynParams {
		if err := dynClient.Tracker().Create(p.gvr, p.obj, p.obj.GetNamespace()); err != nil {
			return nil, fmt.Errorf("param %s/%s: %w", p.obj.GetNamespace(), p.obj.GetName(), err)
		}
	}
	factory := informers.NewSharedInformerFactory(client, 0)

	stopCh := make(chan struct{})
	defer close(stopCh)

	plugin, err := validating.NewPlugin(nil)
	if err != nil {
		return nil, err
	}
	initializer.New(client, dynClient, factory, allowAll{}, utilfeature.DefaultFeatureGate,
		compatibility.DefaultBuildEffectiveVersion(), stopCh, mapper).Initialize(plugin)
	if err := plugin.ValidateInitialization(); err != nil {
		return nil, fmt.Errorf("ValidateInitialization: %w", err)
	}
	factory.Start(stopCh)
	factory.WaitForCacheSync(stopCh)

	var op admission.Operation
	var options runtime.Object
	switch strings.ToUpper(req.Request.Operation) {
	case "", "CREATE":
		op, options = admission.Create, &metav1.CreateOptions{TypeMeta: metav1.TypeMeta{APIVersion: "meta.k8s.io/v1", Kind: "CreateOptions"}}
	case "UPDATE":
		op, options = admission.Update, &metav1.UpdateOptions{TypeMeta: metav1.TypeMeta{APIVersion: "meta.k8s.io/v1", Kind: "UpdateOptions"}}
	case "DELETE":
		op, options = admission.Delete, &metav1.DeleteOptions{TypeMeta: metav1.TypeMeta{APIVersion: "meta.k8s.io/v1", Kind: "DeleteOptions"}}
	case "CONNECT":
		op = admission.Connect
	default:
		return nil, fmt.Errorf("request.operation %q", req.Request.Operation)
	}
	ui := &user.DefaultInfo{
		Name:   req.Request.UserInfo.Username,
		UID:    req.Request.UserInfo.UID,
		Groups: req.Request.UserInfo.Groups,
		Extra:  req.Request.UserInfo.Extra,
	}
	attrs := &annotatingAttributes{
		Attributes:  admission.NewAttributesRecord(obj, oldObj, gvk, namespace, name, gvr, req.Request.SubResource, op, options, req.Request.DryRun, ui),
		annotations: map[string]string{},
	}
	objInterfaces := admission.NewObjectInterfacesFromScheme(clientgoscheme.Scheme)

	// Dispatch inside kube-apiserver's own warning recorder (deduplication and truncation of
	// Warning headers), then read the headers back.
	var verr error
	rec := httptest.NewRecorder()
	handler := filters.WithWarningRecorder(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 30*time.Second)
		defer cancel()
		verr = plugin.Validate(ctx, attrs, objInterfaces)
	}))
	handler.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/", nil))
	warnings := []string{}
	if hs, errs := utilnet.ParseWarningHeaders(rec.Header()["Warning"]); len(errs) == 0 {
		for _, h := range hs {
			warnings = append(warnings, h.Text)
		}
	} else {
		return nil, fmt.Errorf("warning headers: %v", errs)
	}

	ans["allowed"] = verr == nil
	ans["warnings"] = warnings
	ans["auditAnnotations"] = attrs.annotations
	if len(configErrors) > 0 {
		ans["configErrors"] = configErrors
	}
	if verr != nil {
		var se *apierrors.StatusError
		if errors.As(verr, &se) {
			ans["message"] = se.ErrStatus.Message
			ans["reason"] = string(se.ErrStatus.Reason)
			ans["code"] = se.ErrStatus.Code
			if se.ErrStatus.Details != nil && len(se.ErrStatus.Details.Causes) > 0 {
				causes := []string{}
				for _, c := range se.ErrStatus.Details.Causes {
					causes = append(causes, c.Message)
				}
				ans["causes"] = causes
			}
		} else {
			ans["message"] = verr.Error()
		}
	}
	return ans, nil
}

func prefixed(kind, name string, errs field.ErrorList) []string {
	var out []string
	for _, e := range errs {
		out = append(out, fmt.Sprintf("%s %q: %s", kind, name, e.Error()))
	}
	return out
}

// --- defaults, transcribed from pkg/apis/admissionregistration/v1/defaults.go and
// pkg/apis/core/v1/defaults.go (v1.36) ------------------------------------------------------

func setDefaultsPolicy(p *admissionregistrationv1.ValidatingAdmissionPolicy) {
	if p.Spec.FailurePolicy == nil {
		policy := admissionregistrationv1.Fail
		p.Spec.FailurePolicy = &policy
	}
	setDefaultsMatchResources(p.Spec.MatchConstraints)
}

func setDefaultsBinding(b *admissionregistrationv1.ValidatingAdmissionPolicyBinding) {
	setDefaultsMatchResources(b.Spec.MatchResources)
}

func setDefaultsMatchResources(obj *admissionregistrationv1.MatchResources) {
	if obj == nil {
		return
	}
	if obj.MatchPolicy == nil {
		policy := admissionregistrationv1.Equivalent
		obj.MatchPolicy = &policy
	}
	if obj.NamespaceSelector == nil {
		obj.NamespaceSelector = &metav1.LabelSelector{}
	}
	if obj.ObjectSelector == nil {
		obj.ObjectSelector = &metav1.LabelSelector{}
	}
	for _, rules := range [][]admissionregistrationv1.NamedRuleWithOperations{obj.ResourceRules, obj.ExcludeResourceRules} {
		for i := range rules {
			if rules[i].Scope == nil { // SetDefaults_Rule
				s := admissionregistrationv1.AllScopes
				rules[i].Scope = &s
			}
		}
	}
}

func setDefaultsNamespace(ns *v1.Namespace) {
	if len(ns.Name) > 0 {
		if ns.Labels == nil {
			ns.Labels = map[string]string{}
		}
		ns.Labels[v1.LabelMetadataName] = ns.Name
	}
	if ns.Status.Phase == "" {
		ns.Status.Phase = v1.NamespaceActive
	}
}

// --- the part of kube-apiserver's create validation of policies and bindings that the
// admission plugin does not repeat, transcribed from
// pkg/apis/admissionregistration/validation/validation.go (v1.36): required fields and the CEL
// compilation of every expression in the NewExpressions environment. A policy or binding that
// has such errors would have been refused by kube-apiserver. --------------------------------

var supportedFailurePolicies = sets.New(string(admissionregistrationv1.Ignore), string(admissionregistrationv1.Fail))
var supportedValidationPolicyReason = sets.New(
	string(metav1.StatusReasonForbidden), string(metav1.StatusReasonInvalid),
	string(metav1.StatusReasonRequestEntityTooLarge), string(metav1.StatusReasonUnauthorized))
var celIdentRegex = regexp.MustCompile("^[_a-zA-Z][_a-zA-Z0-9]*$")
var celReserved = sets.New("true", "false", "null", "in", "as", "break", "const", "continue", "else",
	"for", "function", "if", "import", "let", "loop", "package", "namespace", "return", "var", "void", "while")
var newlineMatcher = regexp.MustCompile(`[\n\r]+`)

func validatePolicy(p *admissionregistrationv1.ValidatingAdmissionPolicy) field.ErrorList {
	var allErrors field.ErrorList
	spec := &p.Spec
	fldPath := field.NewPath("spec")
	var compiler plugincel.Compiler
	getCompiler := func() plugincel.Compiler {
		if compiler == nil {
			envSet := environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion())
			if len(spec.Variables) > 0 {
				c, err := plugincel.NewCompositedCompiler(envSet)
				if err == nil {
					compiler = c
					return compiler
				}
			}
			compiler = plugincel.NewCompiler(envSet)
		}
		return compiler
	}
	hasParams := spec.ParamKind != nil
	if spec.FailurePolicy == nil {
		allErrors = append(allErrors, field.Required(fldPath.Child("failurePolicy"), ""))
	} else if !supportedFailurePolicies.Has(string(*spec.FailurePolicy)) {
		allErrors = append(allErrors, field.NotSupported(fldPath.Child("failurePolicy"), *spec.FailurePolicy, sets.List(supportedFailurePolicies)))
	}
	if spec.ParamKind != nil {
		if len(spec.ParamKind.APIVersion) == 0 {
			allErrors = append(allErrors, field.Required(fldPath.Child("paramKind", "apiVersion"), ""))
		}
		if len(spec.ParamKind.Kind) == 0 {
			allErrors = append(allErrors, field.Required(fldPath.Child("paramKind", "kind"), ""))
		}
	}
	if spec.MatchConstraints == nil {
		allErrors = append(allErrors, field.Required(fldPath.Child("matchConstraints"), ""))
	} else {
		allErrors = append(allErrors, validateMatchResources(spec.MatchConstraints, fldPath.Child("matchConstraints"))...)
		if len(spec.MatchConstraints.ResourceRules) == 0 {
			allErrors = append(allErrors, field.Required(fldPath.Child("matchConstraints", "resourceRules"), ""))
		}
	}
	for i, mc := range spec.MatchConditions {
		mp := fldPath.Child("matchConditions").Index(i)
		if strings.TrimSpace(mc.Expression) == "" {
			allErrors = append(allErrors, field.Required(mp.Child("expression"), ""))
		} else {
			mcond := &matchconditions.MatchCondition{Expression: strings.TrimSpace(mc.Expression)}
			stateless := plugincel.NewCompiler(environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()))
			res := stateless.CompileCELExpression(mcond, plugincel.OptionalVariableDeclarations{HasParams: hasParams, HasAuthorizer: true}, environment.NewExpressions)
			if res.Error != nil {
				allErrors = append(allErrors, celFieldError(mp.Child("expression"), mcond.GetExpression(), res.Error))
			}
		}
		if len(mc.Name) == 0 {
			allErrors = append(allErrors, field.Required(mp.Child("name"), ""))
		}
	}
	for i, v := range spec.Variables {
		vp := fldPath.Child("variables").Index(i)
		if strings.TrimSpace(v.Name) == "" {
			allErrors = append(allErrors, field.Required(vp.Child("name"), "name is not specified"))
		} else if !celIdentRegex.MatchString(v.Name) || celReserved.Has(v.Name) {
			allErrors = append(allErrors, field.Invalid(vp.Child("name"), v.Name, "name is not a valid CEL identifier"))
		}
		if strings.TrimSpace(v.Expression) == "" {
			allErrors = append(allErrors, field.Required(vp.Child("expression"), "expression is not specified"))
		} else if cc, ok := getCompiler().(*plugincel.CompositedCompiler); ok {
			variable := &validating.Variable{Name: v.Name, Expression: v.Expression}
			res := cc.CompileAndStoreVariable(variable, plugincel.OptionalVariableDeclarations{HasParams: hasParams, HasAuthorizer: true}, environment.NewExpressions)
			if res.Error != nil {
				allErrors = append(allErrors, celFieldError(vp.Child("expression"), variable.GetExpression(), res.Error))
			}
		}
	}
	if len(spec.Validations) == 0 && len(spec.AuditAnnotations) == 0 {
		allErrors = append(allErrors, field.Required(fldPath.Child("validations"), "validations or auditAnnotations must contain at least one item"))
		allErrors = append(allErrors, field.Required(fldPath.Child("auditAnnotations"), "validations or auditAnnotations must contain at least one item"))
	} else {
		for i, v := range spec.Validations {
			vp := fldPath.Child("validations").Index(i)
			if strings.TrimSpace(v.Expression) == "" {
				allErrors = append(allErrors, field.Required(vp.Child("expression"), "expression is not specified"))
			} else {
				cond := &validating.ValidationCondition{Expression: v.Expression}
				res := getCompiler().CompileCELExpression(cond, plugincel.OptionalVariableDeclarations{HasParams: hasParams, HasAuthorizer: true}, environment.NewExpressions)
				if res.Error != nil {
					allErrors = append(allErrors, celFieldError(vp.Child("expression"), v.Expression, res.Error))
				}
			}
			trimmedMsg := strings.TrimSpace(v.Message)
			if len(v.MessageExpression) > 0 && strings.TrimSpace(v.MessageExpression) == "" {
				allErrors = append(allErrors, field.Invalid(vp.Child("messageExpression"), v.MessageExpression, "must be non-empty if specified"))
			} else if strings.TrimSpace(v.MessageExpression) != "" {
				cond := &validating.MessageExpressionCondition{MessageExpression: v.MessageExpression}
				res := getCompiler().CompileCELExpression(cond, plugincel.OptionalVariableDeclarations{HasParams: hasParams, HasAuthorizer: false}, environment.NewExpressions)
				if res.Error != nil {
					allErrors = append(allErrors, celFieldError(vp.Child("messageExpression"), v.MessageExpression, res.Error))
				}
			}
			if len(v.Message) > 0 && len(trimmedMsg) == 0 {
				allErrors = append(allErrors, field.Invalid(vp.Child("message"), v.Message, "message must be non-empty if specified"))
			} else if newlineMatcher.MatchString(trimmedMsg) {
				allErrors = append(allErrors, field.Invalid(vp.Child("message"), v.Message, "message must not contain line breaks"))
			}
			if v.Reason != nil && !supportedValidationPolicyReason.Has(string(*v.Reason)) {
				allErrors = append(allErrors, field.NotSupported(vp.Child("reason"), *v.Reason, sets.List(supportedValidationPolicyReason)))
			}
		}
		keys := sets.New[string]()
		for i, a := range spec.AuditAnnotations {
			ap := fldPath.Child("auditAnnotations").Index(i)
			if len(p.Name) != 0 {
				for _, msg := range validation.IsQualifiedName(p.Name + "/" + a.Key) {
					allErrors = append(allErrors, field.Invalid(ap.Child("key"), p.Name+"/"+a.Key, msg))
				}
			} else {
				allErrors = append(allErrors, field.Invalid(ap.Child("key"), a.Key, "requires metadata.name be non-empty"))
			}
			tv := strings.TrimSpace(a.ValueExpression)
			if tv == "" {
				allErrors = append(allErrors, field.Required(ap.Child("valueExpression"), "valueExpression is not specified"))
			} else {
				cond := &validating.AuditAnnotationCondition{ValueExpression: tv}
				res := getCompiler().CompileCELExpression(cond, plugincel.OptionalVariableDeclarations{HasParams: hasParams, HasAuthorizer: true}, environment.NewExpressions)
				if res.Error != nil {
					allErrors = append(allErrors, celFieldError(ap.Child("valueExpression"), a.ValueExpression, res.Error))
				}
			}
			if keys.Has(a.Key) {
				allErrors = append(allErrors, field.Duplicate(ap.Child("key"), a.Key))
			}
			keys.Insert(a.Key)
		}
	}
	return allErrors
}

func celFieldError(fldPath *field.Path, expression string, celErr *apiservercel.Error) *field.Error {
	switch celErr.Type {
	case apiservercel.ErrorTypeRequired:
		return field.Required(fldPath, celErr.Detail)
	case apiservercel.ErrorTypeInvalid:
		return field.Invalid(fldPath, expression, celErr.Detail)
	default:
		return field.InternalError(fldPath, celErr)
	}
}

func validateMatchResources(mc *admissionregistrationv1.MatchResources, fldPath *field.Path) field.ErrorList {
	var allErrors field.ErrorList
	if mc == nil {
		return nil
	}
	if mc.NamespaceSelector != nil {
		allErrors = append(allErrors, metav1validation.ValidateLabelSelector(mc.NamespaceSelector, metav1validation.LabelSelectorValidationOptions{}, fldPath.Child("namespaceSelector"))...)
	}
	if mc.ObjectSelector != nil {
		allErrors = append(allErrors, metav1validation.ValidateLabelSelector(mc.ObjectSelector, metav1validation.LabelSelectorValidationOptions{}, fldPath.Child("objectSelector"))...)
	}
	return allErrors
}

func validateBinding(b *admissionregistrationv1.ValidatingAdmissionPolicyBinding) field.ErrorList {
	var allErrors field.ErrorList
	fldPath := field.NewPath("spec")
	if len(b.Spec.PolicyName) == 0 {
		allErrors = append(allErrors, field.Required(fldPath.Child("policyName"), ""))
	}
	if pr := b.Spec.ParamRef; pr != nil {
		pp := fldPath.Child("paramRef")
		if len(pr.Name) > 0 && pr.Selector != nil {
			allErrors = append(allErrors, field.Forbidden(pp.Child("name"), `name and selector are mutually exclusive`))
			allErrors = append(allErrors, field.Forbidden(pp.Child("selector"), `name and selector are mutually exclusive`))
		}
		if len(pr.Name) == 0 && pr.Selector == nil {
			allErrors = append(allErrors, field.Required(pp, `one of name or selector must be specified`))
		}
		if pr.ParameterNotFoundAction == nil || len(*pr.ParameterNotFoundAction) == 0 {
			allErrors = append(allErrors, field.Required(pp.Child("parameterNotFoundAction"), ""))
		} else if *pr.ParameterNotFoundAction != admissionregistrationv1.DenyAction && *pr.ParameterNotFoundAction != admissionregistrationv1.AllowAction {
			allErrors = append(allErrors, field.NotSupported(pp.Child("parameterNotFoundAction"), pr.ParameterNotFoundAction, []string{string(admissionregistrationv1.DenyAction), string(admissionregistrationv1.AllowAction)}))
		}
	}
	allErrors = append(allErrors, validateMatchResources(b.Spec.MatchResources, fldPath.Child("matchResources"))...)
	vp := fldPath.Child("validationActions")
	actions := sets.New[string]()
	valid := sets.New(string(admissionregistrationv1.Deny), string(admissionregistrationv1.Warn), string(admissionregistrationv1.Audit))
	for i, action := range b.Spec.ValidationActions {
		if !valid.Has(string(action)) {
			allErrors = append(allErrors, field.NotSupported(vp.Index(i), action, sets.List(valid)))
		}
		if actions.Has(string(action)) {
			allErrors = append(allErrors, field.Duplicate(vp.Index(i), action))
		}
		actions.Insert(string(action))
	}
	if actions.Has(string(admissionregistrationv1.Deny)) && actions.Has(string(admissionregistrationv1.Warn)) {
		allErrors = append(allErrors, field.Invalid(vp, b.Spec.ValidationActions, "must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)"))
	}
	if len(actions) == 0 {
		allErrors = append(allErrors, field.Required(vp, "at least one validation action is required"))
	}
	return allErrors
}

// ---------------------------------------------------------------------------------------------
// mode "vap-typecheck"

// schemaDecl gives the type checker the schema of a kind, in one of two forms:
//   - openAPIV3Document: a whole OpenAPI v3 document as kube-apiserver serves it under
//     /openapi/v3/apis/<group>/<version> (kinds found through x-kubernetes-group-version-kind,
//     references resolved): what kube-controller-manager's ClientDiscoveryResolver reads;
//   - apiVersion + kind + openAPIV3Schema: a CRD's schema; apiVersion, kind and an ObjectMeta
//     schema for metadata are added the way the CRD's published OpenAPI has them (approximation).
type schemaDecl struct {
	APIVersion        string          `json:"apiVersion"`
	Kind              string          `json:"kind"`
	OpenAPIV3Schema   json.RawMessage `json:"openAPIV3Schema"`
	OpenAPIV3Document json.RawMessage `json:"openAPIV3Document"`
}

type openAPIDoc struct {
	Components struct {
		Schemas map[string]*spec.Schema `json:"schemas"`
	} `json:"components"`
}

type oracleSchemaResolver struct {
	kinds map[schema.GroupVersionKind]*spec.Schema
	docs  []*openAPIDoc
}

func (r *oracleSchemaResolver) ResolveSchema(gvk schema.GroupVersionKind) (*spec.Schema, error) {
	if s, ok := r.kinds[gvk]; ok {
		return s, nil
	}
	for _, doc := range r.docs {
		for ref, s := range doc.Components.Schemas {
			var gvks []schema.GroupVersionKind
			if err := s.Extensions.GetObject("x-kubernetes-group-version-kind", &gvks); err != nil {
				return nil, err
			}
			for _, g := range gvks {
				if g == gvk {
					return resolver.PopulateRefs(func(ref string) (*spec.Schema, bool) {
						s, ok := doc.Components.Schemas[strings.TrimPrefix(ref, "#/components/schemas/")]
						return s, ok
					}, "#/components/schemas/"+ref)
				}
			}
		}
	}
	return nil, fmt.Errorf("cannot resolve group version kind %q: %w", gvk, resolver.ErrSchemaNotFound)
}

const objectMetaSchema = `{"type":"object","properties":{
 "name":{"type":"string"},"generateName":{"type":"string"},"namespace":{"type":"string"},
 "selfLink":{"type":"string"},"uid":{"type":"string"},"resourceVersion":{"type":"string"},
 "generation":{"type":"integer","format":"int64"},
 "creationTimestamp":{"type":"string","format":"date-time"},
 "deletionTimestamp":{"type":"string","format":"date-time"},
 "deletionGracePeriodSeconds":{"type":"integer","format":"int64"},
 "labels":{"type":"object","additionalProperties":{"type":"string"}},
 "annotations":{"type":"object","additionalProperties":{"type":"string"}},
 "finalizers":{"type":"array","items":{"type":"string"},"x-kubernetes-list-type":"set"},
 "ownerReferences":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["uid"],"items":{"type":"object",
   "required":["apiVersion","kind","name","uid"],"properties":{
   "apiVersion":{"type":"string"},"kind":{"type":"string"},"name":{"type":"string"},"uid":{"type":"string"},
   "controller":{"type":"boolean"},"blockOwnerDeletion":{"type":"boolean"}}}},
 "managedFields":{"type":"array","items":{"type":"object","properties":{
   "manager":{"type":"string"},"operation":{"type":"string"},"apiVersion":{"type":"string"},
   "time":{"type":"string","format":"date-time"},"fieldsType":{"type":"string"},
   "fieldsV1":{"type":"object"},"subresource":{"type":"string"}}}}}}`

func newSchemaResolver(decls []schemaDecl) (*oracleSchemaResolver, error) {
	r := &oracleSchemaResolver{kinds: map[schema.GroupVersionKind]*spec.Schema{}}
	for i, d := range decls {
		if len(d.OpenAPIV3Document) > 0 {
			doc := &openAPIDoc{}
			if err := json.Unmarshal(d.OpenAPIV3Document, doc); err != nil {
				return nil, fmt.Errorf("schemas[%d].openAPIV3Document: %w", i, err)
			}
			r.docs = append(r.docs, doc)
			continue
		}
		gv, err := schema.ParseGroupVersion(d.APIVersion)
		if err != nil {
			return nil, fmt.Errorf("schemas[%d]: %w", i, err)
		}
		s := &spec.Schema{}
		if err := json.Unmarshal(d.OpenAPIV3Schema, s); err != nil {
			return nil, fmt.Errorf("schemas[%d].openAPIV3Schema: %w", i, err)
		}
		if s.Properties == nil {
			s.Properties = map[string]spec.Schema{}
		}
		for _, k := range []string{"apiVersion", "kind"} {
			if _, ok := s.Properties[k]; !ok {
				s.Properties[k] = *spec.StringProperty()
			}
		}
		meta := spec.Schema{}
		if err := json.Unmarshal([]byte(objectMetaSchema), &meta); err != nil {
			return nil, err
		}
		s.Properties["metadata"] = meta
		if len(s.Type) == 0 {
			s.Type = spec.StringOrArray{"object"}
		}
		r.kinds[gv.WithKind(d.Kind)] = s
	}
	return r, nil
}

func runTypecheck(req *request) (map[string]any, error) {
	if len(req.Policy) == 0 {
		return nil, errors.New("vap-typecheck: missing policy")
	}
	p := &admissionregistrationv1.ValidatingAdmissionPolicy{}
	if err := decode(req.Policy, p); err != nil {
		return nil, fmt.Errorf("policy: %w", err)
	}
	setDefaultsPolicy(p)
	mapper, err := newRESTMapper(req.Resources)
	if err != nil {
		return nil, err
	}
	res, err := newSchemaResolver(req.Schemas)
	if err != nil {
		return nil, err
	}
	tc := &validating.TypeChecker{SchemaResolver: res, RestMapper: mapper}
	warnings := tc.Check(p)
	out := []map[string]string{}
	for _, w := range warnings {
		out = append(out, map[string]string{"fieldRef": w.FieldRef, "warning": w.Warning})
	}
	ans := map[string]any{"warnings": out, "limits": policyLimits(p, req.Policy)}
	if errs := validatePolicy(p); len(errs) > 0 {
		ans["configErrors"] = prefixed("ValidatingAdmissionPolicy", p.Name, errs)
	}
	return ans, nil
}
