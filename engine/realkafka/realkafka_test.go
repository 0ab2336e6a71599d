package realkafka

import (
	"context"
	"encoding/base64"
	"errors"
	"io"
	"strings"
	"testing"
)

// Without java and mvn, Start is exit 2 and names both and how to get them.
func TestMissingTools(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := Start(context.Background(), Options{Dir: t.TempDir(), TransactionVersion: -1}, io.Discard)
	var me *MissingToolsError
	if !errors.As(err, &me) || ExitCode(err) != 2 {
		t.Fatalf("Start without java = %v, want a MissingToolsError (exit 2)", err)
	}
	if _, err := Fetch(context.Background(), t.TempDir(), "4.1.2", io.Discard); !strings.Contains(err.Error(), "mvn") || !strings.Contains(err.Error(), "install") {
		t.Errorf("Fetch without mvn = %v, want it to name mvn and how to install it", err)
	}
}

func TestOptionsRefused(t *testing.T) {
	for _, o := range []Options{
		{},
		{Dir: "d", KafkaVersion: "latest"},
		{Dir: "d", KafkaVersion: "3.9.2", TransactionVersion: 2},
		{Dir: "d", TransactionVersion: 3},
		{Dir: "d", Brokers: 9},
	} {
		if err := o.defaults(); ExitCode(err) != 2 {
			t.Errorf("%+v: %v, want a usage error", o, err)
		}
	}
}

func TestServerProperties(t *testing.T) {
	p := serverProperties(&node{id: 2, bport: 9092, cport: 9093, dir: "n"}, "1@127.0.0.1:1,2@127.0.0.1:9093", 4, []string{"x=y"})
	for _, want := range []string{
		"node.id=2\n", "controller.quorum.voters=1@127.0.0.1:1,2@127.0.0.1:9093\n",
		"listeners=PLAINTEXT://127.0.0.1:9092,CONTROLLER://127.0.0.1:9093\n",
		"transaction.state.log.replication.factor=1\n", "transaction.state.log.min.isr=1\n",
		"transaction.abort.timed.out.transaction.cleanup.interval.ms=200\n", "x=y\n",
		// The simulation's count, so verify compares coordinator partitions.
		"transaction.state.log.num.partitions=50\n", "offsets.topic.num.partitions=50\n",
	} {
		if !strings.Contains(p, want) {
			t.Errorf("server.properties lacks %q", want)
		}
	}
}

func TestClusterID(t *testing.T) {
	id, err := clusterID()
	if err != nil || len(id) != 22 || id[0] == '-' {
		t.Fatalf("clusterID = %q, %v; want 22 base64url characters not starting with '-'", id, err)
	}
	b, err := base64.RawURLEncoding.DecodeString(id)
	if err != nil || len(b) != 16 {
		t.Fatalf("clusterID %q decodes to %d bytes (%v), want 16 (a Uuid)", id, len(b), err)
	}
	if !MadeByUp(id) {
		t.Errorf("clusterID %q does not carry the kafka up mark", id)
	}
	other, _ := clusterID()
	if other == id {
		t.Errorf("two cluster ids are equal: %q", id)
	}
	if MadeByUp("MkU3OEVBNTcwNTJENDM2Qk") {
		t.Error("a cluster id without the mark reads as kafka up's")
	}
}
