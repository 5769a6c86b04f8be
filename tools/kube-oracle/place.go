package main

// Mode "place": a queue of pods placed one after another as kube-scheduler v1.36 would, each
// through the filters of mode "fit" (the same code) and then the default profile's score plugins,
// with the pod's requests added to the chosen node before the next pod. The score plugins are in
// k8s.io/kubernetes, which Debian does not package; they are transcribed below, each function
// naming its file. Library code: component-helpers' PodRequests (with NonMissingContainerRequests),
// its preferred node affinity terms (nodeaffinity.NewPreferredSchedulingTerms) and taint toleration.
//
// Two departures from kube-scheduler, both deliberate and shared with itgen: every feasible node
// is scored (percentageOfNodesToScore 100), and among nodes with the highest score the first by
// name wins (selectHost picks one of them at random).

import (
	"errors"
	"fmt"
	"math"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	resourcehelper "k8s.io/component-helpers/resource"
	corev1helpers "k8s.io/component-helpers/scheduling/corev1"
	"k8s.io/component-helpers/scheduling/corev1/nodeaffinity"
	"k8s.io/klog/v2"
)

const (
	maxNodeScore = int64(100) // fwk.MaxNodeScore
	// pkg/scheduler/util/pod_resources.go
	defaultMilliCPURequest = int64(100)
	defaultMemoryRequest   = int64(200 * 1024 * 1024)
	// pkg/scheduler/framework/plugins/imagelocality/image_locality.go
	mb                    = int64(1024 * 1024)
	minThreshold          = 23 * mb
	maxContainerThreshold = 1000 * mb
)

// Default plugin weights: pkg/scheduler/apis/config/v1/default_plugins.go getDefaultPlugins.
const (
	weightTaintToleration   = 3
	weightNodeAffinity      = 2
	weightNodeResourcesFit  = 1
	weightBalancedAllocation = 1
	weightImageLocality     = 1
)

type placeNode struct {
	node        *v1.Node
	pods        []*v1.Pod
	nonZeroCPU  int64
	nonZeroMem  int64
	imageSizes  map[string]int64
}

// podNonZero follows PodInfo.CalculateResource (pkg/scheduler/framework/types.go v1.36): the
// non-zero CPU and memory a pod counts for in scoring; the defaults fill in only when the pod as a
// whole requests none (getNonMissingContainerRequests), and not with pod-level requests.
func podNonZero(p *v1.Pod) (int64, int64) {
	opts := resourcehelper.PodResourcesOptions{UseStatusResources: true, SkipPodLevelResources: false}
	requests := resourcehelper.PodRequests(p, opts)
	nonMissing := v1.ResourceList{}
	if !resourcehelper.IsPodLevelRequestsSet(p) {
		if cpu := requests[v1.ResourceCPU]; cpu.IsZero() {
			nonMissing[v1.ResourceCPU] = *resource.NewMilliQuantity(defaultMilliCPURequest, resource.DecimalSI)
		}
		if mem := requests[v1.ResourceMemory]; mem.IsZero() {
			nonMissing[v1.ResourceMemory] = *resource.NewQuantity(defaultMemoryRequest, resource.DecimalSI)
		}
	}
	non0 := requests
	if len(nonMissing) > 0 {
		opts.NonMissingContainerRequests = nonMissing
		non0 = resourcehelper.PodRequests(p, opts)
	}
	cpu := non0[v1.ResourceCPU]
	mem := non0[v1.ResourceMemory]
	return cpu.MilliValue(), mem.Value()
}

// scorePodRequests follows resourceAllocationScorer.calculatePodResourceRequest
// (noderesources/resource_allocation.go v1.36): with the non-zero defaults per container for
// LeastAllocated (useRequested false), as requested for BalancedAllocation (useRequested true).
func scorePodRequests(pod *v1.Pod, useRequested bool) (int64, int64) {
	opts := resourcehelper.PodResourcesOptions{UseStatusResources: true, SkipPodLevelResources: false}
	if !useRequested {
		opts.NonMissingContainerRequests = v1.ResourceList{
			v1.ResourceCPU:    *resource.NewMilliQuantity(defaultMilliCPURequest, resource.DecimalSI),
			v1.ResourceMemory: *resource.NewQuantity(defaultMemoryRequest, resource.DecimalSI),
		}
	}
	r := resourcehelper.PodRequests(pod, opts)
	cpu := r[v1.ResourceCPU]
	mem := r[v1.ResourceMemory]
	return cpu.MilliValue(), mem.Value()
}

// leastRequestedScore and leastResourceScorer: noderesources/least_allocated.go (cpu and memory,
// each weighted 1: the default NodeResourcesFitArgs scoring strategy).
func leastRequestedScore(requested, capacity int64) int64 {
	if capacity == 0 {
		return 0
	}
	if requested > capacity {
		return 0
	}
	return ((capacity - requested) * maxNodeScore) / capacity
}

func leastAllocatedScore(requested, allocatable []int64) int64 {
	var nodeScore, weightSum int64
	for i := range requested {
		if allocatable[i] == 0 {
			continue
		}
		nodeScore += leastRequestedScore(requested[i], allocatable[i])
		weightSum++
	}
	if weightSum == 0 {
		return 0
	}
	return nodeScore / weightSum
}

// balancedResourceScorer: noderesources/balanced_allocation.go.
func balancedResourceScorer(requested, allocatable []int64) int64 {
	var fractions []float64
	var total float64
	for i := range requested {
		if allocatable[i] == 0 {
			continue
		}
		f := float64(requested[i]) / float64(allocatable[i])
		if f > 1 {
			f = 1
		}
		total += f
		fractions = append(fractions, f)
	}
	std := 0.0
	if len(fractions) == 2 {
		std = math.Abs((fractions[0] - fractions[1]) / 2)
	} else if len(fractions) > 2 {
		mean := total / float64(len(fractions))
		var sum float64
		for _, f := range fractions {
			sum += (f - mean) * (f - mean)
		}
		std = math.Sqrt(sum / float64(len(fractions)))
	}
	return int64((1 - std) * float64(maxNodeScore))
}

// defaultNormalizeScore: pkg/scheduler/framework/plugins/helper/normalize_score.go.
func defaultNormalizeScore(reverse bool, scores []int64) {
	var maxCount int64
	for _, s := range scores {
		if s > maxCount {
			maxCount = s
		}
	}
	if maxCount == 0 {
		if reverse {
			for i := range scores {
				scores[i] = maxNodeScore
			}
		}
		return
	}
	for i := range scores {
		s := maxNodeScore * scores[i] / maxCount
		if reverse {
			s = maxNodeScore - s
		}
		scores[i] = s
	}
}

// normalizedImageName: imagelocality/image_locality.go.
func normalizedImageName(name string) string {
	if strings.LastIndex(name, ":") <= strings.LastIndex(name, "/") {
		name = name + ":latest"
	}
	return name
}

// imageLocalityScore: imagelocality/image_locality.go Score, sumImageScores, scaledImageScore,
// calculatePriority (containers and init containers).
func imageLocalityScore(pod *v1.Pod, n *placeNode, numNodesWith map[string]int, totalNodes int) int64 {
	var sum int64
	containers := append(append([]v1.Container{}, pod.Spec.InitContainers...), pod.Spec.Containers...)
	for _, c := range containers {
		name := normalizedImageName(c.Image)
		if size, ok := n.imageSizes[name]; ok {
			spread := float64(numNodesWith[name]) / float64(totalNodes)
			sum += int64(float64(size) * spread)
		}
	}
	maxThreshold := maxContainerThreshold * int64(len(containers))
	if sum < minThreshold {
		sum = minThreshold
	} else if sum > maxThreshold {
		sum = maxThreshold
	}
	return maxNodeScore * (sum - minThreshold) / (maxThreshold - minThreshold)
}

func runPlace(req *request) (map[string]any, error) {
	if len(req.Queue) == 0 {
		return nil, errors.New("place: missing queue")
	}
	var nodes []*placeNode
	byName := map[string]*placeNode{}
	numNodesWith := map[string]int{}
	for i, raw := range req.Nodes {
		n := &v1.Node{}
		if err := decode(raw, n); err != nil {
			return nil, fmt.Errorf("place: nodes[%d]: %w", i, err)
		}
		setDefaultsNode(n)
		pn := &placeNode{node: n, imageSizes: map[string]int64{}}
		// NodeInfo.SetNode → ImageStates from node.Status.Images (every name of an image).
		for _, img := range n.Status.Images {
			for _, name := range img.Names {
				pn.imageSizes[name] = img.SizeBytes
			}
		}
		for name := range pn.imageSizes {
			numNodesWith[name]++
		}
		nodes = append(nodes, pn)
		byName[n.Name] = pn
	}
	addPod := func(pn *placeNode, p *v1.Pod) {
		pn.pods = append(pn.pods, p)
		c, m := podNonZero(p)
		pn.nonZeroCPU += c
		pn.nonZeroMem += m
	}
	for i, raw := range req.Pods {
		p := &v1.Pod{}
		if err := decode(raw, p); err != nil {
			return nil, fmt.Errorf("place: pods[%d]: %w", i, err)
		}
		setDefaultsPod(p)
		if p.Spec.NodeName == "" || p.Status.Phase == v1.PodSucceeded || p.Status.Phase == v1.PodFailed {
			continue
		}
		if pn := byName[p.Spec.NodeName]; pn != nil {
			addPod(pn, p)
		}
	}

	placements := []map[string]any{}
	for qi, raw := range req.Queue {
		pod := &v1.Pod{}
		if err := decode(raw, pod); err != nil {
			return nil, fmt.Errorf("place: queue[%d]: %w", qi, err)
		}
		setDefaultsPod(pod)
		podReqList := resourcehelper.PodRequests(pod, resourcehelper.PodResourcesOptions{SkipPodLevelResources: false})
		podRequest := &schedResource{}
		podRequest.SetMaxResource(podReqList)
		naSkip, naNodeNames, naStatus := nodeAffinityPreFilter(pod)
		required := nodeaffinity.GetRequiredNodeAffinity(pod)

		var feasible []*placeNode
		var verdicts []nodeFit
		for _, pn := range nodes {
			ni := newNodeInfo(pn.node, pn.pods)
			r := nodeFit{Name: pn.node.Name, Reasons: []string{}}
			switch {
			case naStatus != "":
				r.Plugin, r.Reasons = "NodeAffinity", []string{naStatus}
			case naNodeNames != nil && !naNodeNames.Has(pn.node.Name):
				r.Plugin, r.Reasons = "NodeAffinity", []string{"node(s) didn't satisfy plugin(s) [NodeAffinity]"}
			default:
				if u := filterNodeUnschedulable(pod, pn.node); len(u) > 0 {
					r.Plugin, r.Reasons = "NodeUnschedulable", u
				} else if _, t := filterTaintToleration(pod, pn.node); len(t) > 0 {
					r.Plugin, r.Reasons = "TaintToleration", t
				} else if match, _ := required.Match(pn.node); !naSkip && !match {
					r.Plugin, r.Reasons = "NodeAffinity", []string{errReasonPod}
				} else if f := fitsRequest(podRequest, ni); len(f) > 0 {
					r.Plugin, r.Reasons = "NodeResourcesFit", f
				}
			}
			r.Fits = len(r.Reasons) == 0
			verdicts = append(verdicts, r)
			if r.Fits {
				feasible = append(feasible, pn)
			}
		}
		name := pod.Name
		if len(feasible) == 0 {
			slim := make([]map[string]any, 0, len(verdicts))
			for _, v := range verdicts {
				slim = append(slim, map[string]any{"name": v.Name, "plugin": v.Plugin, "reasons": v.Reasons})
			}
			placements = append(placements, map[string]any{"name": name, "node": nil, "nodes": slim, "message": fitErrorMessage(verdicts, naStatus)})
			continue
		}
		scores := make([]int64, len(feasible))
		if len(feasible) > 1 {
			scores = scoreNodes(pod, feasible, numNodesWith, len(nodes))
		}
		best := 0
		for i := 1; i < len(feasible); i++ {
			if scores[i] > scores[best] || (scores[i] == scores[best] && feasible[i].node.Name < feasible[best].node.Name) {
				best = i
			}
		}
		chosen := feasible[best]
		placed := pod.DeepCopy()
		placed.Spec.NodeName = chosen.node.Name
		addPod(chosen, placed)
		p := map[string]any{"name": name, "node": chosen.node.Name}
		if len(feasible) > 1 {
			p["score"] = scores[best]
			all := map[string]int64{}
			for i, f := range feasible {
				all[f.node.Name] = scores[i]
			}
			p["scores"] = all
		}
		placements = append(placements, p)
	}
	placed := 0
	for _, p := range placements {
		if p["node"] != nil {
			placed++
		}
	}
	return map[string]any{"placements": placements, "placed": placed, "total": len(placements)}, nil
}

// scoreNodes runs the default profile's score plugins on the feasible nodes and sums them with
// their weights (frameworkImpl.RunScorePlugins).
func scoreNodes(pod *v1.Pod, feasible []*placeNode, numNodesWith map[string]int, totalNodes int) []int64 {
	n := len(feasible)
	total := make([]int64, n)

	// TaintToleration (taint_toleration.go PreScore, Score, NormalizeScore reversed).
	var prefer []v1.Toleration
	for _, t := range pod.Spec.Tolerations {
		if len(t.Effect) == 0 || t.Effect == v1.TaintEffectPreferNoSchedule {
			prefer = append(prefer, t)
		}
	}
	taint := make([]int64, n)
	for i, pn := range feasible {
		for _, t := range pn.node.Spec.Taints {
			if t.Effect != v1.TaintEffectPreferNoSchedule {
				continue
			}
			if !corev1helpers.TolerationsTolerateTaint(klog.Background(), prefer, &t, enableComparisonTaintOp) {
				taint[i]++
			}
		}
	}
	defaultNormalizeScore(true, taint)

	// NodeAffinity (node_affinity.go PreScore skips without preferred terms; Score sums the
	// weights of the matching terms; NormalizeScore).
	affinity := make([]int64, n)
	if a := pod.Spec.Affinity; a != nil && a.NodeAffinity != nil && len(a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution) > 0 {
		terms, err := nodeaffinity.NewPreferredSchedulingTerms(a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution)
		if err == nil {
			for i, pn := range feasible {
				affinity[i] = terms.Score(pn.node)
			}
			defaultNormalizeScore(false, affinity)
		}
	}

	leastCPU, leastMem := scorePodRequests(pod, false)
	balCPU, balMem := scorePodRequests(pod, true)
	bestEffort := balCPU == 0 && balMem == 0 // BalancedAllocation PreScore skips best-effort pods
	for i, pn := range feasible {
		ni := newNodeInfo(pn.node, pn.pods)
		alloc := []int64{ni.Allocatable.MilliCPU, ni.Allocatable.Memory}
		// NodeResourcesFit, LeastAllocated: the node's non-zero requests plus the pod's.
		least := leastAllocatedScore([]int64{pn.nonZeroCPU + leastCPU, pn.nonZeroMem + leastMem}, alloc)
		var balanced int64
		if !bestEffort {
			balanced = balancedResourceScorer([]int64{ni.Requested.MilliCPU + balCPU, ni.Requested.Memory + balMem}, alloc)
		}
		image := imageLocalityScore(pod, pn, numNodesWith, totalNodes)
		total[i] = weightTaintToleration*taint[i] + weightNodeAffinity*affinity[i] + weightNodeResourcesFit*least +
			weightBalancedAllocation*balanced + weightImageLocality*image
	}
	return total
}

