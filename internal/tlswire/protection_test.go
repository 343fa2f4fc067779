package tlswire

import (
	"bytes"
	"encoding/hex"
	"errors"
	"io"
	"strings"
	"testing"
)

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestTrafficKeys (fast tier): RFC 8448 §3 (simple 1-RTT handshake, TLS_AES_128_GCM_SHA256):
// the server handshake traffic secret and the key and IV it expands to; and
// "The Illustrated TLS 1.3 Connection" (tls13.xargs.org,
// TLS_AES_256_GCM_SHA384): both handshake secrets and their keys and IVs.
func TestTrafficKeys(t *testing.T) {
	for _, tc := range []struct {
		name            string
		suite           uint16
		secret, key, iv string
	}{
		{"RFC 8448 §3 server handshake", TLS_AES_128_GCM_SHA256,
			"b6 7b 7d 69 0c c1 6c 4e 75 e5 42 13 cb 2d 37 b4 e9 c9 12 bc de d9 10 5d 42 be fd 59 d3 91 ad 38",
			"3f ce 51 60 09 c2 17 27 d0 f2 e4 e8 6e e4 03 bc", "5d 31 3e b2 67 12 76 ee 13 00 0b 30"},
		{"xargs server handshake", TLS_AES_256_GCM_SHA384,
			"23323da031634b241dd37d61032b62a4f450584d1f7f47983ba2f7cc0cdcc39a68f481f2b019f9403a3051908a5d1622",
			"9f13575ce3f8cfc1df64a77ceaffe89700b492ad31b4fab01c4792be1b266b7f", "9563bc8b590f671f488d2da3"},
		{"xargs client handshake", TLS_AES_256_GCM_SHA384,
			"db89d2d6df0e84fed74a2288f8fd4d0959f790ff23946cdf4c26d85e51bebd42ae184501972f8d30c4a3e4a3693d0ef0",
			"1135b4826a9a70257e5a391ad93093dfd7c4214812f493b3e3daae1eb2b1ac69", "4256d2e0e88babdd05eb2f27"},
	} {
		key, iv, err := TrafficKeys(tc.suite, unhex(t, tc.secret))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(key, unhex(t, tc.key)) || !bytes.Equal(iv, unhex(t, tc.iv)) {
			t.Errorf("%s: key %x iv %x, want %s %s", tc.name, key, iv, tc.key, tc.iv)
		}
		// TrafficKeys takes HKDF-Expand's first block alone; the general
		// ExpandLabel must agree.
		s, _ := Suite13ByID(tc.suite)
		k2, err1 := ExpandLabel(s.Hash, unhex(t, tc.secret), "key", nil, s.KeyLen)
		iv2, err2 := ExpandLabel(s.Hash, unhex(t, tc.secret), "iv", nil, 12)
		if err1 != nil || err2 != nil || !bytes.Equal(k2, key) || !bytes.Equal(iv2, iv) {
			t.Errorf("%s: ExpandLabel gives key %x iv %x (%v, %v)", tc.name, k2, iv2, err1, err2)
		}
	}
}

// TestOpenRecord decrypts two records of tls13.xargs.org: the server's
// EncryptedExtensions (sequence 0 under the server handshake secret) and
// the client's Finished (sequence 0 under the client handshake secret).
// A flipped bit must fail authentication.
func TestOpenRecord(t *testing.T) {
	ee := unhex(t, "17 03 03 00 17 6b e0 2f 9d a7 c2 dc 9d de f5 6f 24 68 b9 0a df a2 51 01 ab 03 44 ae")
	fin := unhex(t, `17 03 03 00 45 9f f9 b0 63 17 51 77 32 2a 46 dd 98 96 f3 c3 bb 82 0a b5 17 43 eb c2 5f da dd 53
		45 4b 73 de b5 4c c7 24 8d 41 1a 18 bc cf 65 7a 96 08 24 e9 a1 93 64 83 7c 35 0a 69 a8 8d 4b f6
		35 c8 5e b8 74 ae bc 9d fd e8`)
	server := unhex(t, "23323da031634b241dd37d61032b62a4f450584d1f7f47983ba2f7cc0cdcc39a68f481f2b019f9403a3051908a5d1622")
	client := unhex(t, "db89d2d6df0e84fed74a2288f8fd4d0959f790ff23946cdf4c26d85e51bebd42ae184501972f8d30c4a3e4a3693d0ef0")

	recs, tail, err := ParseRecords(ee)
	if err != nil || tail != 0 || len(recs) != 1 {
		t.Fatalf("ParseRecords: %v, tail %d, %d records", err, tail, len(recs))
	}
	p, err := NewRecordProtection(TLS_AES_256_GCM_SHA384, server)
	if err != nil {
		t.Fatal(err)
	}
	content, typ, err := p.Open(recs[0])
	if err != nil || typ != ContentHandshake || !bytes.Equal(content, []byte{8, 0, 0, 2, 0, 0}) {
		t.Errorf("EncryptedExtensions: %x type %d, %v; want 080000020000 type 22", content, typ, err)
	}

	recs, _, _ = ParseRecords(fin)
	p, _ = NewRecordProtection(TLS_AES_256_GCM_SHA384, client)
	content, typ, err = p.Open(recs[0])
	if err != nil || typ != ContentHandshake || len(content) != 4+48 || content[0] != TypeFinished {
		t.Errorf("client Finished: %x type %d, %v; want a 52-byte Finished", content, typ, err)
	}
	msgs, rest := ParseHandshakeMessages(content)
	if len(msgs) != 1 || len(rest) != 0 || msgs[0].Type != TypeFinished || len(msgs[0].Body) != 48 {
		t.Errorf("Finished message: %+v rest %x", msgs, rest)
	}

	bad := bytes.Clone(fin)
	bad[20] ^= 1
	recs, _, _ = ParseRecords(bad)
	p, _ = NewRecordProtection(TLS_AES_256_GCM_SHA384, client)
	if _, _, err := p.Open(recs[0]); err == nil {
		t.Error("a record with a flipped bit decrypted")
	}
	// The wrong sequence number fails too.
	recs, _, _ = ParseRecords(fin)
	p, _ = NewRecordProtection(TLS_AES_256_GCM_SHA384, client)
	p.seq = 1
	if _, _, err := p.Open(recs[0]); err == nil {
		t.Error("a record decrypted under the wrong sequence number")
	}
}

func TestKeyLog(t *testing.T) {
	data := []byte("# SSL/TLS secrets log file\n\nCLIENT_HANDSHAKE_TRAFFIC_SECRET 0102 aabb\nCLIENT_RANDOM 0102 ccdd\n")
	k, err := ParseKeyLog(data)
	if err != nil {
		t.Fatal(err)
	}
	if got := k.Secret(LabelClientHandshake, []byte{1, 2}); !bytes.Equal(got, []byte{0xaa, 0xbb}) {
		t.Errorf("secret %x", got)
	}
	if k.Len() != 2 || k.Secret(LabelServerHandshake, []byte{1, 2}) != nil {
		t.Errorf("len %d", k.Len())
	}
	for _, bad := range []string{"CLIENT_RANDOM 01\n", "CLIENT_RANDOM zz 00\n", "A B C D\n"} {
		if _, err := ParseKeyLog([]byte(bad)); err == nil || !strings.Contains(err.Error(), "line 1") {
			t.Errorf("ParseKeyLog(%q) error %v, want line 1", bad, err)
		}
	}
}

// TestRecordReader (fast tier): the live reader's caps — a record refused
// from its header (the body is never there to read), a message refused
// from its header, records that carry nothing counted — a header that is
// not TLS kept for the caller to show, and a message reassembled across
// records.
func TestRecordReader(t *testing.T) {
	rr := NewRecordReader(bytes.NewReader([]byte{22, 3, 3, 0x40, 0x01}), 1<<14, 64, 2)
	var tooLarge *RecordTooLarge
	if _, err := rr.ReadRecord(); !errors.As(err, &tooLarge) || tooLarge.Size != 1<<14+1 {
		t.Fatalf("an oversized record: %v", err)
	}
	rr = NewRecordReader(bytes.NewReader([]byte("HTTP/1.1 400")), 1<<14, 64, 2)
	var notTLS *NotTLSError
	if _, err := rr.ReadRecord(); !errors.As(err, &notTLS) || !errors.Is(err, ErrNotTLS) || string(notTLS.Header[:]) != "HTTP/" {
		t.Fatalf("an HTTP answer: %v", err)
	}
	// A Finished of 8 bytes split over two records, then a message that
	// announces more than the cap.
	msg := HandshakeMessage{Type: TypeFinished, Body: []byte("12345678")}.Marshal()
	stream := append(MarshalRecords(ContentHandshake, 0x0303, msg[:3]), MarshalRecords(ContentHandshake, 0x0303, msg[3:])...)
	stream = append(stream, MarshalRecords(ContentHandshake, 0x0303, []byte{TypeCertificate, 0, 1, 0})...)
	rr = NewRecordReader(bytes.NewReader(stream), 1<<14, 64, 2)
	for {
		if typ, got, ok := rr.NextMessage(); ok {
			if typ != TypeFinished || !bytes.Equal(got, msg) || rr.Pending() != 0 {
				t.Fatalf("message %d %x, %d pending", typ, got, rr.Pending())
			}
			break
		}
		rec, err := rr.ReadRecord()
		if err != nil {
			t.Fatal(err)
		}
		if err := rr.AddHandshake(rec.Fragment); err != nil {
			t.Fatal(err)
		}
	}
	rec, err := rr.ReadRecord()
	if err != nil {
		t.Fatal(err)
	}
	var msgTooLarge *MessageTooLarge
	if err := rr.AddHandshake(rec.Fragment); !errors.As(err, &msgTooLarge) || msgTooLarge.Size != 256 || msgTooLarge.Limit != 64 {
		t.Fatalf("an oversized message: %v", err)
	}
	if rr.Records() != 3 {
		t.Fatalf("%d records read, want 3", rr.Records())
	}
	var useless *TooManyUseless
	if rr.Skip("a") != nil || rr.Skip("b") != nil || !errors.As(rr.Skip("c"), &useless) || useless.Last != "c" {
		t.Fatal("the third record that carries nothing was not refused")
	}
	if _, err := rr.ReadRecord(); err != io.ErrUnexpectedEOF {
		t.Fatalf("at the stream's end: %v, want io.ErrUnexpectedEOF", err)
	}
}
