package remotesign

import (
	"bytes"
	"encoding/binary"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// The marshal and parse pairs are inverse, and the sizes the accounting
// and the model use are the encodings' lengths.
func TestMessagesRoundTrip(t *testing.T) {
	doc := bytes.Repeat([]byte{0xab}, 1000)
	msgs := []Message{
		KeyRequest{Scheme: "ECDSA-P256-SHA256"},
		KeyResponse{Status: StatusOK, Scheme: "Ed25519", PublicKey: []byte{0x30, 0x2a, 1, 2, 3}},
		KeyResponse{Status: StatusUnknownScheme, Scheme: "X", Error: "no key"},
		SignRequest{ID: 7, Scheme: "RSA-2048-PSS-SHA256", Document: doc},
		SignRequest{ID: 8, Scheme: "Ed25519", Document: []byte{}},
		SignResponse{ID: 7, Status: StatusOK, HashNs: 1, SignNs: 2, CPUNs: 3, ServerNs: 1 << 40, Signature: []byte{9, 9, 9}},
		SignResponse{ID: 9, Status: StatusTooLarge, Error: "too big"},
	}
	for _, m := range msgs {
		b, err := m.Marshal()
		if err != nil {
			t.Fatalf("%T: %v", m, err)
		}
		if n := binary.BigEndian.Uint32(b); int(n) != len(b)-FrameHeaderBytes {
			t.Errorf("%T: length prefix %d, body %d", m, n, len(b)-FrameHeaderBytes)
		}
		got, err := ReadMessage(bytes.NewReader(b), MaxFrameBytes)
		if err != nil {
			t.Fatalf("%T: %v", m, err)
		}
		if sr, ok := got.(SignRequest); ok && len(sr.Document) == 0 {
			sr.Document = []byte{} // nil and empty are the same document
			got = sr
		}
		if !reflect.DeepEqual(got, m) {
			t.Errorf("round trip:\n got %#v\nwant %#v", got, m)
		}
	}
	// The fixed sizes, counted by hand from the layout in protocol.go.
	req, _ := SignRequest{ID: 1, Scheme: "Ed25519", Document: doc}.Marshal()
	if want := 4 + 1 + 4 + 1 + 7 + 4 + 1000; len(req) != want || RequestBytes("Ed25519", 1000) != want {
		t.Errorf("SignRequest is %d B, RequestBytes says %d, want %d", len(req), RequestBytes("Ed25519", 1000), want)
	}
	resp, _ := SignResponse{Status: StatusOK, Signature: make([]byte, 64)}.Marshal()
	if want := 4 + 1 + 4 + 1 + 32 + 2 + 64; len(resp) != want || ResponseBytes(64) != want {
		t.Errorf("SignResponse is %d B, ResponseBytes says %d, want %d", len(resp), ResponseBytes(64), want)
	}
}

func TestParseRejects(t *testing.T) {
	good, _ := SignRequest{ID: 1, Scheme: "Ed25519", Document: []byte("doc")}.Marshal()
	body := good[FrameHeaderBytes:]
	for _, tc := range []struct {
		name string
		body []byte
		want string
	}{
		{"empty", nil, "empty frame"},
		{"unknown type", []byte{9}, "unknown message type 9"},
		{"truncated", body[:len(body)-1], "malformed SignRequest"},
		{"trailing", append(append([]byte(nil), body...), 0), "1 trailing bytes"},
		{"empty scheme", []byte{TypeKeyRequest, 0}, "malformed KeyRequest"},
		{"document longer than the frame", []byte{TypeSignRequest, 0, 0, 0, 1, 1, 'x', 0xff, 0xff, 0xff, 0xff}, "malformed SignRequest"},
		{"ok response without signature", []byte{TypeSignResponse, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, "malformed SignResponse"},
	} {
		_, err := ParseBody(tc.body)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.want)
		}
	}
}

// A hostile length prefix is refused before anything is allocated or read.
func TestReadFrameLimit(t *testing.T) {
	var hdr [4]byte
	binary.BigEndian.PutUint32(hdr[:], 0xffffffff)
	_, err := ReadFrame(bytes.NewReader(hdr[:]), 1<<20)
	if !errors.Is(err, ErrFrameTooLarge) {
		t.Fatalf("got %v, want ErrFrameTooLarge", err)
	}
	binary.BigEndian.PutUint32(hdr[:], 10)
	_, err = ReadFrame(bytes.NewReader(append(hdr[:], 1, 2, 3)), 1<<20)
	if err == nil || !strings.Contains(err.Error(), "cut short") {
		t.Fatalf("a short frame: got %v", err)
	}
	if _, err := (SignRequest{Scheme: strings.Repeat("x", 256)}).Marshal(); err == nil {
		t.Error("a 256-byte scheme name marshalled")
	}
}

// FuzzParseBody: no frame body makes the parser panic, and what parses
// re-marshals to the same bytes (the encoding is canonical).
func FuzzParseBody(f *testing.F) {
	for _, m := range []Message{
		KeyRequest{Scheme: "Ed25519"},
		KeyResponse{Status: StatusOK, Scheme: "Ed25519", PublicKey: []byte{1}},
		SignRequest{ID: 1, Scheme: "ECDSA-P256-SHA256", Document: []byte("hello")},
		SignResponse{Status: StatusOK, Signature: []byte{1, 2}},
		SignResponse{Status: StatusBadRequest, Error: "x"},
	} {
		b, _ := m.Marshal()
		f.Add(b[FrameHeaderBytes:])
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		m, err := ParseBody(body)
		if err != nil {
			return
		}
		b, err := m.Marshal()
		if err != nil {
			t.Fatalf("%#v parsed but does not marshal: %v", m, err)
		}
		if !bytes.Equal(b[FrameHeaderBytes:], body) {
			t.Fatalf("re-marshalled %x, parsed %x", b[FrameHeaderBytes:], body)
		}
	})
}
