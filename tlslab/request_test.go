package tlslab

import (
	"bytes"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// givenFlags is a Request's Given for the named flags.
func givenFlags(names ...string) func(string) bool {
	return func(name string) bool { return slices.Contains(names, name) }
}

// TestRequestDimensions checks the matrix a request gives: the default
// or a preset, with the given flags' dimensions replaced and the others
// kept.
func TestRequestDimensions(t *testing.T) {
	r := &Request{Server: "go", Client: "go", Direction: "down"}
	dims, err := r.Dimensions()
	if err != nil || !reflect.DeepEqual(dims, DefaultDimensions()) {
		t.Fatalf("no flags: %+v, %v; want the default", dims, err)
	}
	r = &Request{Preset: "seed000", Server: "go", Client: "go", Versions: []string{" 1.2 "},
		Transfers: []string{"1k"}, ClientAuth: []string{"on"}, Given: givenFlags("client", "version", "transfer", "client-auth")}
	if dims, err = r.Dimensions(); err != nil {
		t.Fatal(err)
	}
	if dims.Server != "openssl" || dims.Client != "go" {
		t.Errorf("peers %s/%s: want the preset's server and the given client", dims.Server, dims.Client)
	}
	if !reflect.DeepEqual(dims.Versions, []Version{TLS12}) || !reflect.DeepEqual(dims.Transfers, []int{1024}) ||
		!reflect.DeepEqual(dims.ClientAuth, []bool{true}) {
		t.Errorf("versions %v, transfers %v, client auth %v: want the flags' values", dims.Versions, dims.Transfers, dims.ClientAuth)
	}
	if !reflect.DeepEqual(dims.KeyExchanges, []KeyExchange{KexRSA, KexDHE}) {
		t.Errorf("key exchanges %v: want the preset's", dims.KeyExchanges)
	}
}

// TestRequestCheck checks the errors a request is refused with before
// any work, word for word as the command line shows them.
func TestRequestCheck(t *testing.T) {
	ok := func() Request {
		return Request{Server: "go", Client: "go", Direction: "down", Options: Options{Repeat: 3}}
	}
	for _, tc := range []struct {
		name   string
		change func(*Request)
		want   string
	}{
		{"preset", func(r *Request) { r.Preset = "nope" }, `unknown preset "nope": want one of`},
		{"version", func(r *Request) { r.Versions, r.Given = []string{"2.0"}, givenFlags("version") }, `--version "2.0": want one of`},
		{"client-auth", func(r *Request) { r.ClientAuth, r.Given = []string{"maybe"}, givenFlags("client-auth") }, `--client-auth "maybe": want off, on or off,on`},
		{"transfer", func(r *Request) { r.Transfers, r.Given = []string{"lots"}, givenFlags("transfer") }, "--transfer: "},
		{"impossible", func(r *Request) {
			r.Versions, r.KeyExchanges, r.Given = []string{"1.3"}, []string{"rsa"}, givenFlags("version", "kex")
		}, "1 of 1 cells are impossible"},
		{"link", func(r *Request) { r.Link = "no-such-link" }, "--link: "},
		{"pcap", func(r *Request) { r.Options.NoTap, r.Pcap = true, "dir" }, "--pcap saves what the wire tap records, and --no-tap turns it off: drop one"},
		{"device", func(r *Request) { r.Options.NoTap, r.Priced = true, true }, "--device prices the traffic and the handshake the wire tap records, and --no-tap turns it off: drop one"},
		{"repeat", func(r *Request) { r.Options.Repeat = 0 }, "--repeat 0: want 1 to 1000 connections per cell"},
	} {
		r := ok()
		tc.change(&r)
		err := r.Check()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v; want %q", tc.name, err, tc.want)
		}
	}
	r := ok()
	if err := r.Check(); err != nil || len(r.cells) != 1 || r.Options.Link != nil {
		t.Errorf("the default: %v, %d cells, link %v; want one cell on loopback", err, len(r.cells), r.Options.Link)
	}
}

// TestRequestCheckSettles checks what Check settles: --quick's one
// connection unless --repeat is given, the link, and the note on the
// cells skipped (none when quiet).
func TestRequestCheckSettles(t *testing.T) {
	var log bytes.Buffer
	r := Request{Server: "go", Client: "go", Direction: "down", Options: Options{Repeat: 3}, Quick: true, Log: &log,
		Versions: []string{"1.2", "1.3"}, KeyExchanges: []string{"rsa"}, Certs: []string{"rsa2048"},
		SkipImpossible: true, Given: givenFlags("version", "kex", "cert")}
	if err := r.Check(); err != nil {
		t.Fatal(err)
	}
	if r.Options.Repeat != 1 || len(r.cells) != 1 || log.String() != "skipping 1 impossible cells (--skip-impossible)\n" {
		t.Errorf("repeat %d, %d cells, log %q", r.Options.Repeat, len(r.cells), log.String())
	}
	log.Reset()
	r.Quiet, r.Options.Repeat, r.Given = true, 5, givenFlags("version", "kex", "cert", "repeat")
	r.Link = "LAN"
	if err := r.Check(); err != nil {
		t.Fatal(err)
	}
	if r.Options.Repeat != 5 || log.Len() != 0 || r.Options.Link == nil {
		t.Errorf("repeat %d, log %q, link %v: want the given repeat, no note, the link", r.Options.Repeat, log.String(), r.Options.Link)
	}
}

// TestWriteList checks that --list names every preset, the links and the
// peers.
func TestWriteList(t *testing.T) {
	var b strings.Builder
	if err := WriteList(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range append(PresetNames(), "Presets:", "Links (--link):", "Peers (--server, --client):", "LAN", "openssl") {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the list has no %q", want)
		}
	}
}
