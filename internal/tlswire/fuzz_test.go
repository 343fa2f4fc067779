package tlswire

import (
	"bytes"
	"reflect"
	"testing"
)

// One fuzz target per family, seeded with the captured streams and their
// messages: go test -fuzz FuzzRecords ./internal/tlswire (FuzzHello,
// FuzzCertificate (with CertificateRequest, ClientKeyExchange), FuzzServerKeyExchange, FuzzTicket, FuzzEncrypted,
// FuzzKeyLog). Each must never panic, and what parses must marshal to
// bytes that parse to the same message.

func seedMessages(f *testing.F) {
	for _, s := range streams(f) {
		for _, m := range plaintextMessages(f, s) {
			f.Add(m)
		}
	}
}

// reparse checks that a parsed message marshals to bytes that parse back
// to it.
func reparse(t *testing.T, m message, fresh func() message) {
	b, err := m.Marshal()
	if err != nil {
		return // a parsed message too large to marshal (e.g. a list over 2^16)
	}
	again := fresh()
	if err := again.Unmarshal(b); err != nil {
		t.Fatalf("%T: re-parse of its own marshalling: %v", m, err)
	}
	if !reflect.DeepEqual(again, m) {
		t.Fatalf("%T: re-parse differs\n got %+v\nwant %+v", m, again, m)
	}
}

func FuzzRecords(f *testing.F) {
	for _, s := range streams(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		recs, tail, err := ParseRecords(b)
		n := tail
		for _, r := range recs {
			n += r.Len()
		}
		if err == nil && n != len(b) {
			t.Fatalf("records and tail hold %d of %d bytes", n, len(b))
		}
		split, rest := SplitRecords(b)
		if len(split) < len(recs) || len(rest) > len(b) {
			t.Fatalf("SplitRecords found %d records, ParseRecords %d", len(split), len(recs))
		}
		if r, err := ReadRecord(bytes.NewReader(b), MaxCiphertext13); err == nil && r.Len() > len(b) {
			t.Fatal("ReadRecord read more than there was")
		}
		hb := HandshakeBuffer{Max: 1 << 12}
		for _, r := range split {
			if _, err := hb.Add(r.Fragment); err != nil {
				break
			}
		}
	})
}

func FuzzHello(f *testing.F) {
	seedMessages(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		var ch ClientHello
		if ch.Unmarshal(b) == nil {
			reparse(t, &ch, func() message { return &ClientHello{} })
		}
		var sh ServerHello
		if sh.Unmarshal(b) == nil {
			reparse(t, &sh, func() message { return &ServerHello{} })
		}
	})
}

func FuzzCertificate(f *testing.F) {
	seedMessages(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, tls13 := range []bool{false, true} {
			c := Certificate{TLS13: tls13}
			if c.Unmarshal(b) == nil {
				reparse(t, &c, func() message { return &Certificate{TLS13: tls13} })
			}
		}
		var cs CertificateStatus
		if cs.Unmarshal(b) == nil {
			reparse(t, &cs, func() message { return &CertificateStatus{} })
		}
		for _, v := range [][2]bool{{false, false}, {false, true}, {true, false}} {
			cr := CertificateRequest{TLS13: v[0], TLS12: v[1]}
			if cr.Unmarshal(b) == nil {
				reparse(t, &cr, func() message { return &CertificateRequest{TLS13: v[0], TLS12: v[1]} })
			}
		}
		for _, kex := range []KeyExchange{KexRSA, KexDHE, KexECDHE} {
			cke := ClientKeyExchange{Kex: kex}
			if cke.Unmarshal(b) == nil {
				reparse(t, &cke, func() message { return &ClientKeyExchange{Kex: kex} })
			}
		}
	})
}

func FuzzServerKeyExchange(f *testing.F) {
	seedMessages(f)
	ecdhe, _ := SuiteByID(0xc02f)
	dhe, _ := SuiteByID(0x0033)
	export, _ := SuiteByID(0x0003)
	rsaExport, _ := (&ServerKeyExchange{Kex: KexRSA, Modulus: bytes.Repeat([]byte{0xc5}, 64), Exponent: []byte{1, 0, 1},
		Signed: true, Signature: bytes.Repeat([]byte{7}, 128)}).Marshal()
	f.Add(rsaExport)
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, s := range []Suite{ecdhe, dhe, export} {
			for _, v := range []Version{TLS10, TLS12} {
				ske, err := ParseServerKeyExchange(b, s, v)
				if err != nil {
					continue
				}
				out, err := ske.Marshal()
				if err == nil && !bytes.Equal(out, b) {
					t.Fatalf("%s %s: ServerKeyExchange marshals to other bytes", s.Name, v)
				}
			}
		}
	})
}

func FuzzTicket(f *testing.F) {
	seedMessages(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, tls13 := range []bool{false, true} {
			m := NewSessionTicket{TLS13: tls13}
			if m.Unmarshal(b) == nil {
				reparse(t, &m, func() message { return &NewSessionTicket{TLS13: tls13} })
			}
		}
	})
}

func FuzzEncrypted(f *testing.F) {
	f.Add([]byte{8, 0, 0, 2, 0, 0})
	f.Add([]byte{20, 0, 0, 32, 1, 2, 3})
	key := bytes.Repeat([]byte{7}, 32)
	f.Fuzz(func(t *testing.T, b []byte) {
		var ee EncryptedExtensions
		if ee.Unmarshal(b) == nil {
			reparse(t, &ee, func() message { return &EncryptedExtensions{} })
		}
		var fin Finished
		if fin.Unmarshal(b) == nil {
			reparse(t, &fin, func() message { return &Finished{} })
		}
		// Sealing then opening any content gives it back.
		w, _ := NewRecordProtection(TLS_AES_128_GCM_SHA256, key)
		r, _ := NewRecordProtection(TLS_AES_128_GCM_SHA256, key)
		if len(b) > MaxPlaintext {
			return
		}
		recs, _, err := ParseRecords(w.Seal(b, ContentHandshake))
		if err != nil || len(recs) != 1 {
			t.Fatalf("sealed record: %v", err)
		}
		content, typ, err := r.Open(recs[0])
		if err != nil || typ != ContentHandshake || !bytes.Equal(bytes.TrimRight(b, "\x00"), content) && !bytes.Equal(b, content) {
			t.Fatalf("open(seal(%x)) = %x, %d, %v", b, content, typ, err)
		}
	})
}

func FuzzKeyLog(f *testing.F) {
	f.Add([]byte("CLIENT_RANDOM 0102 aabb\n# c\n\nSERVER_TRAFFIC_SECRET_0 0102 ccdd\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		k, err := ParseKeyLog(b)
		if err == nil && k.Len() < 0 {
			t.Fatal("negative length")
		}
	})
}
