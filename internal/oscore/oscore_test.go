package oscore

import (
	"bytes"
	"encoding/hex"
	"testing"

	"github.com/plgd-dev/go-coap/v3/message"
	"github.com/plgd-dev/go-coap/v3/udp/coder"
)

// Tier: fast. RFC 8613 Appendix C test vectors, transcribed from the RFC
// text (hex).

func hx(t testing.TB, s string) []byte {
	t.Helper()
	if s == "" {
		return []byte{}
	}
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

const (
	masterSecret = "0102030405060708090a0b0c0d0e0f10"
	masterSalt   = "9e7ca92223786340"
	idContext    = "37cbf3210017a2d3"
)

// C.1–C.3: key derivation, client and server.
func TestKeyDerivationVectors(t *testing.T) {
	for _, c := range []struct {
		name                        string
		salt, sender, recip, idctx  string
		infoSender, infoRecip, info string
		senderKey, recipKey, iv     string
		senderNonce, recipNonce     string
	}{
		{"C.1.1 client", masterSalt, "", "01", "", "8540f60a634b657910", "854101f60a634b657910", "8540f60a6249560d",
			"f0910ed7295e6ad4b54fc793154302ff", "ffb14e093c94c9cac9471648b4f98710", "4622d4dd6d944168eefb54987c",
			"4622d4dd6d944168eefb54987c", "4722d4dd6d944169eefb54987c"},
		{"C.1.2 server", masterSalt, "01", "", "", "854101f60a634b657910", "8540f60a634b657910", "8540f60a6249560d",
			"ffb14e093c94c9cac9471648b4f98710", "f0910ed7295e6ad4b54fc793154302ff", "4622d4dd6d944168eefb54987c",
			"4722d4dd6d944169eefb54987c", "4622d4dd6d944168eefb54987c"},
		{"C.2.1 client", "", "00", "01", "", "854100f60a634b657910", "854101f60a634b657910", "8540f60a6249560d",
			"321b26943253c7ffb6003b0b64d74041", "e57b5635815177cd679ab4bcec9d7dda", "be35ae297d2dace910c52e99f9",
			"bf35ae297d2dace910c52e99f9", "bf35ae297d2dace810c52e99f9"},
		{"C.2.2 server", "", "01", "00", "", "854101f60a634b657910", "854100f60a634b657910", "8540f60a6249560d",
			"e57b5635815177cd679ab4bcec9d7dda", "321b26943253c7ffb6003b0b64d74041", "be35ae297d2dace910c52e99f9",
			"bf35ae297d2dace810c52e99f9", "bf35ae297d2dace910c52e99f9"},
		{"C.3.1 client", masterSalt, "", "01", idContext, "85404837cbf3210017a2d30a634b657910", "8541014837cbf3210017a2d30a634b657910",
			"85404837cbf3210017a2d30a6249560d", "af2a1300a5e95788b356336eeecd2b92", "e39a0c7c77b43f03b4b39ab9a268699f",
			"2ca58fb85ff1b81c0b7181b85e", "2ca58fb85ff1b81c0b7181b85e", "2da58fb85ff1b81d0b7181b85e"},
		{"C.3.2 server", masterSalt, "01", "", idContext, "8541014837cbf3210017a2d30a634b657910", "85404837cbf3210017a2d30a634b657910",
			"85404837cbf3210017a2d30a6249560d", "e39a0c7c77b43f03b4b39ab9a268699f", "af2a1300a5e95788b356336eeecd2b92",
			"2ca58fb85ff1b81c0b7181b85e", "2da58fb85ff1b81d0b7181b85e", "2ca58fb85ff1b81c0b7181b85e"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var idctx []byte
			if c.idctx != "" {
				idctx = hx(t, c.idctx)
			}
			var salt []byte
			if c.salt != "" {
				salt = hx(t, c.salt)
			}
			ctx, err := NewContext(hx(t, masterSecret), salt, hx(t, c.sender), hx(t, c.recip), idctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, chk := range []struct {
				what      string
				got, want []byte
			}{
				{"info (Sender Key)", Info(hx(t, c.sender), idctx, "Key", 16), hx(t, c.infoSender)},
				{"info (Recipient Key)", Info(hx(t, c.recip), idctx, "Key", 16), hx(t, c.infoRecip)},
				{"info (Common IV)", Info(nil, idctx, "IV", 13), hx(t, c.info)},
				{"Sender Key", ctx.SenderKey, hx(t, c.senderKey)},
				{"Recipient Key", ctx.RecipientKey, hx(t, c.recipKey)},
				{"Common IV", ctx.CommonIV, hx(t, c.iv)},
				{"sender nonce", ctx.Nonce(ctx.SenderID, []byte{0}), hx(t, c.senderNonce)},
				{"recipient nonce", ctx.Nonce(ctx.RecipientID, []byte{0}), hx(t, c.recipNonce)},
			} {
				if !bytes.Equal(chk.got, chk.want) {
					t.Errorf("%s: got %x, want %x", chk.what, chk.got, chk.want)
				}
			}
		})
	}
}

func encode(t *testing.T, m message.Message) []byte {
	t.Helper()
	buf := make([]byte, 256)
	n, err := coder.DefaultCoder.Encode(m, buf)
	if err != nil {
		t.Fatal(err)
	}
	return buf[:n]
}

func decode(t *testing.T, b []byte) message.Message {
	t.Helper()
	m := message.Message{Options: make(message.Options, 0, 16)}
	if _, err := coder.DefaultCoder.Decode(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// C.4–C.6: protected requests; C.7: the protected response to C.4; each
// also verified and decrypted by the other side.
func TestMessageVectors(t *testing.T) {
	for _, c := range []struct {
		name, salt, idctx       string
		clientID, serverID      string
		unprotected, protected  string
		response, protectedResp string
	}{
		{name: "C.4 + C.7", salt: masterSalt, clientID: "", serverID: "01",
			unprotected:   "44015d1f00003974396c6f63616c686f737483747631",
			protected:     "44025d1f00003974396c6f63616c686f7374620914ff612f1092f1776f1c1668b3825e",
			response:      "64455d1f00003974ff48656c6c6f20576f726c6421",
			protectedResp: "64445d1f0000397490ffdbaad1e9a7e7b2a813d3c31524378303cdafae119106"},
		{name: "C.5", clientID: "00", serverID: "01",
			unprotected: "440171c30000b932396c6f63616c686f737483747631",
			protected:   "440271c30000b932396c6f63616c686f737463091400ff4ed339a5a379b0b8bc731fffb0"},
		{name: "C.6", salt: masterSalt, idctx: idContext, clientID: "", serverID: "01",
			unprotected: "44012f8eef9bbf7a396c6f63616c686f737483747631",
			protected:   "44022f8eef9bbf7a396c6f63616c686f73746b19140837cbf3210017a2d3ff72cd7273fd331ac45cffbe55c3"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var salt, idctx []byte
			if c.salt != "" {
				salt = hx(t, c.salt)
			}
			if c.idctx != "" {
				idctx = hx(t, c.idctx)
			}
			client, err := NewContext(hx(t, masterSecret), salt, hx(t, c.clientID), hx(t, c.serverID), idctx)
			if err != nil {
				t.Fatal(err)
			}
			server, _ := NewContext(hx(t, masterSecret), salt, hx(t, c.serverID), hx(t, c.clientID), idctx)
			client.SetSequence(20)
			req := decode(t, hx(t, c.unprotected))
			p, bind, err := client.ProtectRequest(req.Code, req.Options, req.Payload)
			if err != nil {
				t.Fatal(err)
			}
			out := req
			out.Code, out.Options, out.Payload = p.Code, p.Options, p.Payload
			if got := encode(t, out); !bytes.Equal(got, hx(t, c.protected)) {
				t.Fatalf("protected request:\n got %x\nwant %s", got, c.protected)
			}
			wire := decode(t, hx(t, c.protected))
			inner, sbind, err := server.UnprotectRequest(Protected{Code: wire.Code, Options: wire.Options, Payload: wire.Payload})
			if err != nil {
				t.Fatal(err)
			}
			back := wire
			back.Code, back.Options, back.Payload = inner.Code, inner.Options, inner.Payload
			if got := encode(t, back); !bytes.Equal(got, hx(t, c.unprotected)) {
				t.Errorf("decrypted request:\n got %x\nwant %s", got, c.unprotected)
			}
			if !bytes.Equal(sbind.Nonce, bind.Nonce) {
				t.Errorf("server and client bind the response to different nonces")
			}
			// The same datagram again is a replay (RFC 8613 §7.4).
			if _, _, err := server.UnprotectRequest(Protected{Code: wire.Code, Options: wire.Options, Payload: wire.Payload}); err != ErrReplay {
				t.Errorf("replayed request: %v, want ErrReplay", err)
			}
			if c.response == "" {
				return
			}
			resp := decode(t, hx(t, c.response))
			pr, err := server.ProtectResponse(resp.Code, resp.Options, resp.Payload, sbind)
			if err != nil {
				t.Fatal(err)
			}
			outResp := resp
			outResp.Code, outResp.Options, outResp.Payload = pr.Code, pr.Options, pr.Payload
			if got := encode(t, outResp); !bytes.Equal(got, hx(t, c.protectedResp)) {
				t.Fatalf("protected response:\n got %x\nwant %s", got, c.protectedResp)
			}
			w := decode(t, hx(t, c.protectedResp))
			ir, err := client.UnprotectResponse(Protected{Code: w.Code, Options: w.Options, Payload: w.Payload}, bind)
			if err != nil {
				t.Fatal(err)
			}
			if string(ir.Payload) != "Hello World!" || ir.Code != resp.Code {
				t.Errorf("decrypted response %v %q", ir.Code, ir.Payload)
			}
			// A flipped ciphertext bit does not verify.
			w.Payload[0] ^= 1
			if _, err := client.UnprotectResponse(Protected{Code: w.Code, Options: w.Options, Payload: w.Payload}, bind); err == nil {
				t.Error("a tampered response verified")
			}
		})
	}
}

// The replay window (RFC 8613 §3.2.2, RFC 6347 §4.1.2.6): new numbers,
// out-of-order numbers within 32 below the highest, duplicates and numbers
// too old.
func TestReplayWindow(t *testing.T) {
	var w Window
	steps := []struct {
		seq  uint64
		want bool
	}{
		{5, true}, {5, false}, {3, true}, {3, false}, {40, true}, {9, true}, {8, false}, {5, false},
		{39, true}, {40, false}, {71, true}, {40, false}, {41, true}, {39, false}, {100, true}, {68, false}, {69, true},
	}
	for i, s := range steps {
		got := w.Check(s.seq)
		if got != s.want {
			t.Errorf("step %d: Check(%d) = %v, want %v", i, s.seq, got, s.want)
		}
		if got {
			w.Accept(s.seq)
		}
	}
}

// RFC 9668 §3.2.1: COMB_PAYLOAD = message_3 / OSCORE ciphertext, split
// back at the end of message_3's byte string. Message_3 of RFC 9529 §3.5
// and the ciphertext of C.4 by hand.
func TestCombinedPayload(t *testing.T) {
	m3 := hx(t, "52473dd16077dd71d65b56e6bd71e7a49d6012")
	ct := hx(t, "612f1092f1776f1c1668b3825e")
	p := CombinedPayload(m3, ct)
	if len(p) != 19+13 {
		t.Fatalf("combined payload %d bytes, want 32", len(p))
	}
	a, b, err := SplitCombined(p)
	if err != nil || !bytes.Equal(a, m3) || !bytes.Equal(b, ct) {
		t.Fatalf("split: %x %x %v", a, b, err)
	}
	for _, bad := range []string{"52473dd16077dd71d65b56e6bd71e7a49d6012", "0102", "5347"} {
		if _, _, err := SplitCombined(hx(t, bad)); err == nil {
			t.Errorf("SplitCombined(%s) accepted", bad)
		}
	}
}

// The OSCORE context EDHOC derives in RFC 9529 §3.8 (Master Secret and
// Salt, client Sender ID 0x27, server Sender ID 0x37) protects a request
// the server verifies, and the response back.
func TestContextFromEDHOCTrace(t *testing.T) {
	secret, salt := hx(t, "8c409a332223ad900e44f3434d2d2ce3"), hx(t, "6163f44be862adfa")
	client, err := NewContext(secret, salt, []byte{0x27}, []byte{0x37}, nil)
	if err != nil {
		t.Fatal(err)
	}
	server, _ := NewContext(secret, salt, []byte{0x37}, []byte{0x27}, nil)
	opts := message.Options{{ID: message.URIPath, Value: []byte("temp")}}
	p, bind, err := client.ProtectRequest(3, opts, []byte("21.5"))
	if err != nil {
		t.Fatal(err)
	}
	in, sbind, err := server.UnprotectRequest(p)
	if err != nil || string(in.Payload) != "21.5" || in.Code != 3 {
		t.Fatalf("server: %+v %v", in, err)
	}
	r, _ := server.ProtectResponse(68, nil, nil, sbind)
	if out, err := client.UnprotectResponse(r, bind); err != nil || out.Code != 68 {
		t.Fatalf("client: %+v %v", out, err)
	}
}

// FuzzUnprotect feeds arbitrary OSCORE option values and payloads to the
// server and the combined-payload splitter. Tier: fast (seeds only).
func FuzzUnprotect(f *testing.F) {
	f.Add([]byte{0x09, 0x14}, hx(f, "612f1092f1776f1c1668b3825e"))
	f.Add([]byte{0x19, 0x14, 0x08, 1, 2, 3, 4, 5, 6, 7, 8}, []byte{0x52, 1})
	f.Add([]byte{}, []byte{})
	f.Fuzz(func(t *testing.T, option, payload []byte) {
		server, err := NewContext(hx(t, masterSecret), hx(t, masterSalt), []byte{1}, []byte{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, _, _ = server.UnprotectRequest(Protected{Code: 2, Options: message.Options{{ID: OptionOSCORE, Value: option}}, Payload: payload})
		_, _, _ = SplitCombined(payload)
		_, _ = RequestKID(message.Options{{ID: OptionOSCORE, Value: option}})
	})
}
