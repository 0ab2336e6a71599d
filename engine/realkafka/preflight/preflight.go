// Package preflight asks a cluster, read only, whether a command can run
// there: which brokers answer and what their API versions say they are
// (ApiVersions), the finalized transaction.version feature (KIP-584,
// KIP-890), and whether the principal may do what the command needs,
// each refusal named by its error (CLUSTER_AUTHORIZATION_FAILED,
// TOPIC_AUTHORIZATION_FAILED, TRANSACTIONAL_ID_AUTHORIZATION_FAILED) with
// the kafka-acls.sh grant that would allow it. Nothing is written: the
// topic creation live mode needs is asked with CreateTopics validateOnly
// (KIP-108), which checks authorization and creates nothing.
//
// It is an I/O edge: it talks to a cluster. It imports no view.
package preflight

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/kversion"

	"github.com/eoslab/eoslab/engine/realkafka"
	"github.com/eoslab/eoslab/engine/realkafka/inspect"
)

// Need is what the command will do on the cluster.
type Need struct {
	// Topics are read (DescribeProducers, ListOffsets, Fetch): inspect's.
	Topics []string
	// Prefix, when set, is the prefix of the topics, transactional ids
	// and groups the command creates (live, verify).
	Prefix string
	// Principal names the user in the grants (User:NAME); "" for the
	// placeholder User:YOU.
	Principal string
}

// Status is one check's outcome.
type Status int

const (
	OK Status = iota
	Refused
	Note
)

var statusWords = [...]string{"ok", "refused", "note"}

func (s Status) String() string { return statusWords[s] }

// Check is one question asked of the cluster.
type Check struct {
	Name   string // the request asked, such as DescribeCluster
	Status Status
	Detail string
	Grant  string // Refused on authorization: the kafka-acls.sh line that allows it
}

// Report is what preflight found.
type Report struct {
	Checks []Check
	// TV is the finalized transaction.version.
	TV int
}

// OK is whether nothing was refused.
func (r Report) OK() bool {
	for _, c := range r.Checks {
		if c.Status == Refused {
			return false
		}
	}
	return true
}

// Text is the report, one line per check and a last count.
func (r Report) Text() string {
	var b strings.Builder
	refused := 0
	for _, c := range r.Checks {
		fmt.Fprintf(&b, "  %-7s %s: %s\n", c.Status, c.Name, c.Detail)
		if c.Grant != "" {
			fmt.Fprintf(&b, "          grant: %s\n", c.Grant)
		}
		if c.Status == Refused {
			refused++
		}
	}
	fmt.Fprintf(&b, "preflight: %d checks, %d refused\n", len(r.Checks), refused)
	return b.String()
}

// Run asks the cluster. The error is a cluster that did not answer at all
// (unreachable, TLS or SASL refused): Words says it for a person.
func Run(ctx context.Context, cl *kgo.Client, need Need) (Report, error) {
	var r Report
	adm := kadm.NewClient(cl)
	vs, err := adm.ApiVersions(ctx)
	if err == nil && len(vs) == 0 {
		err = errors.New("no broker answered ApiVersions")
	}
	if err != nil {
		return r, err
	}
	var parts []string
	for _, v := range vs.Sorted() {
		if v.Err != nil {
			return r, fmt.Errorf("broker %d: ApiVersions: %w", v.NodeID, v.Err)
		}
		guess := kversion.FromApiVersionsResponse(v.Raw()).VersionGuess()
		parts = append(parts, fmt.Sprintf("node %d %s", v.NodeID, guess))
	}
	r.Checks = append(r.Checks, Check{Name: "ApiVersions", Detail: fmt.Sprintf("%d brokers answered: %s (a guess from the API versions, kversion.VersionGuess)", len(vs), strings.Join(parts, "; "))})
	tv, err := realkafka.TransactionVersion(ctx, adm)
	if err != nil {
		r.Checks = append(r.Checks, Check{Name: "transaction.version", Status: Refused, Detail: err.Error()})
	} else {
		r.TV = tv
		proto := "the classic protocol (AddPartitionsToTxn from the client)"
		if tv >= 2 {
			proto = "KIP-890 part 2 (implicit AddPartitionsToTxn, an epoch bump per EndTxn)"
		}
		r.Checks = append(r.Checks, Check{Name: "transaction.version", Detail: fmt.Sprintf("%d, the finalized feature level: %s", tv, proto)})
	}
	r.Checks = append(r.Checks, describeCluster(ctx, cl, need))
	r.Checks = append(r.Checks, describeTxn(ctx, adm, need))
	if len(need.Topics) > 0 {
		r.Checks = append(r.Checks, describeProducers(ctx, adm, need))
	}
	if need.Prefix != "" {
		r.Checks = append(r.Checks, createTopic(ctx, cl, need))
		r.Checks = append(r.Checks, Check{Name: "Write on TransactionalId", Status: Note,
			Detail: "no read-only request shows it; live's first InitProducerId will (TRANSACTIONAL_ID_AUTHORIZATION_FAILED if not granted)",
			Grant:  acl(need, "Write --operation Describe", "--transactional-id "+need.Prefix+" --resource-pattern-type prefixed")})
	}
	return r, nil
}

func principal(n Need) string {
	if n.Principal == "" {
		return "User:YOU"
	}
	return "User:" + n.Principal
}

func acl(n Need, op, resource string) string {
	return fmt.Sprintf("kafka-acls.sh --bootstrap-server ADDR --add --allow-principal %s --operation %s %s", principal(n), op, resource)
}

// refusal is a check refused with err's name and the grant, or nil
// when err is not an authorization error.
func refusal(name string, err error, grant string) *Check {
	for _, auth := range []*kerr.Error{kerr.ClusterAuthorizationFailed, kerr.TopicAuthorizationFailed, kerr.TransactionalIDAuthorizationFailed, kerr.GroupAuthorizationFailed} {
		if errors.Is(err, auth) {
			return &Check{Name: name, Status: Refused, Detail: fmt.Sprintf("%s(%d): the principal is not allowed", auth.Message, auth.Code), Grant: grant}
		}
	}
	return nil
}

func failedCheck(name string, err error) Check {
	return Check{Name: name, Status: Refused, Detail: err.Error()}
}

// describeCluster needs Describe on the Cluster resource (KIP-700).
func describeCluster(ctx context.Context, cl *kgo.Client, need Need) Check {
	const name = "DescribeCluster"
	req := kmsg.NewPtrDescribeClusterRequest()
	resp, err := req.RequestWith(ctx, cl)
	if err == nil {
		err = kerr.ErrorForCode(resp.ErrorCode)
	}
	if c := refusal(name, err, acl(need, "Describe", "--cluster")); c != nil {
		return *c
	}
	if err != nil {
		return failedCheck(name, err)
	}
	ids := make([]int, 0, len(resp.Brokers))
	for _, b := range resp.Brokers {
		ids = append(ids, int(b.NodeID))
	}
	sort.Ints(ids)
	return Check{Name: name, Detail: fmt.Sprintf("cluster %s, controller %d, brokers %v", resp.ClusterID, resp.ControllerID, ids)}
}

// describeTxn asks for a transactional id no one uses: an allowed
// principal hears TRANSACTIONAL_ID_NOT_FOUND, a refused one
// TRANSACTIONAL_ID_AUTHORIZATION_FAILED (TransactionCoordinator's
// handleDescribeTransactions checks Describe on the id first).
func describeTxn(ctx context.Context, adm *kadm.Client, need Need) Check {
	const name = "DescribeTransactions"
	id := need.Prefix + "preflight"
	if need.Prefix == "" {
		id = "eoslab-preflight"
	}
	var err error
	// A coordinator that is not up yet (__transaction_state is made on
	// first use) answers COORDINATOR_NOT_AVAILABLE or
	// COORDINATOR_LOAD_IN_PROGRESS: ask again, within ctx.
	for try := 0; try < 10; try++ {
		var ds kadm.DescribedTransactions
		ds, err = adm.DescribeTransactions(ctx, id)
		if err == nil {
			if d, ok := ds[id]; ok {
				err = d.Err
			}
		}
		if !errors.Is(err, kerr.CoordinatorNotAvailable) && !errors.Is(err, kerr.CoordinatorLoadInProgress) && !errors.Is(err, kerr.NotCoordinator) {
			break
		}
		select {
		case <-ctx.Done():
		case <-time.After(200 * time.Millisecond):
		}
	}
	grant := acl(need, "Describe", "--transactional-id '*'")
	if need.Prefix != "" {
		grant = acl(need, "Describe", "--transactional-id "+need.Prefix+" --resource-pattern-type prefixed")
	}
	if c := refusal(name, err, grant); c != nil {
		return *c
	}
	if err != nil && !errors.Is(err, kerr.TransactionalIDNotFound) {
		return failedCheck(name, err)
	}
	return Check{Name: name, Detail: fmt.Sprintf("allowed (asked for %q: not found, as expected)", id)}
}

// describeProducers needs Read on each topic (KIP-664).
func describeProducers(ctx context.Context, adm *kadm.Client, need Need) Check {
	const name = "DescribeProducers"
	set := kadm.TopicsSet{}
	for _, t := range need.Topics {
		set.Add(t, 0)
	}
	ps, err := adm.DescribeProducers(ctx, set)
	var refusedTopics []string
	if err == nil {
		for _, t := range need.Topics {
			for _, p := range ps[t].Partitions {
				if p.Err != nil {
					if errors.Is(p.Err, kerr.TopicAuthorizationFailed) {
						refusedTopics = append(refusedTopics, t)
					} else if !errors.Is(p.Err, kerr.UnknownTopicOrPartition) {
						err = fmt.Errorf("%s-%d: %w", t, p.Partition, p.Err)
					}
				}
			}
		}
	}
	if len(refusedTopics) > 0 {
		err = kerr.TopicAuthorizationFailed
	} else if errors.Is(err, kerr.TopicAuthorizationFailed) {
		refusedTopics = need.Topics
	}
	if errors.Is(err, kerr.UnknownTopicOrPartition) {
		return Check{Name: name, Status: Note, Detail: fmt.Sprintf("UNKNOWN_TOPIC_OR_PARTITION(3): not every topic of %s exists", strings.Join(need.Topics, ", "))}
	}
	if c := refusal(name, err, acl(need, "Read", "--topic "+strings.Join(refusedTopics, " --topic "))); c != nil {
		c.Detail += ": " + strings.Join(refusedTopics, ", ")
		return *c
	}
	if err != nil {
		return failedCheck(name, err)
	}
	return Check{Name: name, Detail: fmt.Sprintf("allowed on %s", strings.Join(need.Topics, ", "))}
}

// createTopic asks CreateTopics with validateOnly: the broker checks
// Create on the topic and creates nothing.
func createTopic(ctx context.Context, cl *kgo.Client, need Need) Check {
	const name = "CreateTopics (validate only)"
	req := kmsg.NewPtrCreateTopicsRequest()
	req.ValidateOnly = true
	req.TimeoutMillis = 5000
	t := kmsg.NewCreateTopicsRequestTopic()
	t.Topic, t.NumPartitions, t.ReplicationFactor = need.Prefix+"preflight", 1, -1
	req.Topics = append(req.Topics, t)
	resp, err := req.RequestWith(ctx, cl)
	if err == nil && len(resp.Topics) == 1 {
		err = kerr.ErrorForCode(resp.Topics[0].ErrorCode)
	}
	if c := refusal(name, err, acl(need, "Create", "--topic "+need.Prefix+" --resource-pattern-type prefixed")); c != nil {
		return *c
	}
	if errors.Is(err, kerr.TopicAlreadyExists) {
		return Check{Name: name, Status: Refused, Detail: fmt.Sprintf("%s exists: the prefix names a topic of the cluster", t.Topic)}
	}
	if err != nil {
		return failedCheck(name, err)
	}
	return Check{Name: name, Detail: fmt.Sprintf("allowed for %s* (nothing created)", need.Prefix)}
}

// Words says why the cluster at bootstrap did not answer, naming the
// flag to look at.
func Words(bootstrap string, err error) string {
	if w := named(err); w != "" {
		return "the cluster at " + bootstrap + ": " + w
	}
	return inspect.Unreachable(bootstrap, err)
}

// named is the words for an error of the credentials or the transport,
// "" for any other.
func named(err error) string {
	var ke *kerr.Error
	switch {
	case errors.Is(err, kerr.SaslAuthenticationFailed):
		return "SASL authentication failed (SASL_AUTHENTICATION_FAILED(58)): check --sasl-user, the password and --sasl-mechanism"
	case errors.Is(err, kerr.UnsupportedSaslMechanism):
		return "the cluster does not enable this --sasl-mechanism (UNSUPPORTED_SASL_MECHANISM(33))"
	case errors.Is(err, kerr.IllegalSaslState):
		return "SASL handshake refused (ILLEGAL_SASL_STATE(34)): is this listener SASL?"
	case errors.As(err, &ke):
		return fmt.Sprintf("%s(%d): %s", ke.Message, ke.Code, ke.Description)
	}
	s := err.Error()
	switch {
	case strings.Contains(s, "x509:") || strings.Contains(s, "tls:"):
		// crypto/tls and crypto/x509 errors have many types; their
		// package prefix is what they share.
		return "TLS handshake failed: " + s + " (check --tls-ca, --tls-cert, --tls-key, --tls-server-name)"
	case strings.Contains(s, "EOF") || strings.Contains(s, "connection reset"):
		return s + " (the listener closed the connection: a TLS or SASL listener needs --tls or --sasl-mechanism)"
	}
	return ""
}
