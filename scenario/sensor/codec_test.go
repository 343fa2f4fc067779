package sensor

import (
	"bytes"
	"strings"
	"testing"

	"github.com/plgd-dev/go-coap/v3/message"
	"github.com/plgd-dev/go-coap/v3/message/codes"
	"github.com/plgd-dev/go-coap/v3/message/pool"
	"github.com/plgd-dev/go-coap/v3/udp/coder"
)

// SenML reading encodings, written out by hand from RFC 8428 §6 (CBOR
// labels n 0, u 1, v 2, t 6) and RFC 8949: 0x81 array(1), 0xa4 map(4),
// text strings 0x6N, 21.5 as a half float (0 10011 0101100000 = 0x4d60),
// 1700000600 as a 32-bit unsigned integer (0x1a 0x6553f358).
func TestSenMLKnownAnswers(t *testing.T) {
	p := Reading(1, Epoch+600)
	for _, tc := range []struct {
		enc  string
		want []byte
	}{
		{"cbor", unhex(t, "81 a4 00 64 74656d70 01 63 43656c 02 f9 4d60 06 1a 6553f358")},
		{"json", []byte(`[{"n":"temp","u":"Cel","v":21.5,"t":1700000600}]`)},
	} {
		e, err := LookupEncoding(tc.enc)
		if err != nil {
			t.Fatal(err)
		}
		got, err := e.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, tc.want) {
			t.Errorf("%s:\n got %x (%q)\nwant %x", tc.enc, got, got, tc.want)
		}
		back, err := e.Unmarshal(got)
		if err != nil {
			t.Fatal(err)
		}
		if tm, err := ReadingTime(back); err != nil || tm != Epoch+600 || float64(*back[0].Value) != 21.5 {
			t.Errorf("%s: read back %v at %v (%v)", tc.enc, back, tm, err)
		}
		// Every reading encodes to the same size (the values cycle).
		for i := range 25 {
			b, _ := e.Marshal(Reading(i, Epoch+int64(i)*600))
			if len(b) != len(tc.want) {
				t.Errorf("%s: reading %d is %d bytes, reading 1 %d", tc.enc, i, len(b), len(tc.want))
			}
		}
	}
}

// RFC 8428 §5.1.1's single-datapoint example decodes.
func TestSenMLRFCExample(t *testing.T) {
	e, _ := LookupEncoding("json")
	p, err := e.Unmarshal([]byte(`[{"n":"urn:dev:ow:10e2073a01080063","u":"Cel","v":23.1}]`))
	if err != nil {
		t.Fatal(err)
	}
	if p[0].Name != "urn:dev:ow:10e2073a01080063" || p[0].Unit != "Cel" || float64(*p[0].Value) != 23.1 {
		t.Fatalf("decoded %+v", p[0])
	}
	if _, err := ReadingTime(p); err == nil {
		t.Fatal("a record without a time was given a time")
	}
}

func TestSenMLRefuses(t *testing.T) {
	cb, _ := LookupEncoding("cbor")
	js, _ := LookupEncoding("json")
	many := "[" + strings.Repeat(`{"n":"a","v":1},`, maxRecords) + `{"n":"a","v":1}]`
	for _, tc := range []struct {
		e    *Encoding
		in   []byte
		want string
	}{
		{js, []byte(many), "at most 64"},
		{js, []byte(`{"n":1}`), "SenML JSON"},
		{cb, unhex(t, "a1 00 01"), "SenML CBOR"},                                         // a map, not an array
		{cb, unhex(t, "81 a2 00 61 61 00 61 62"), "SenML CBOR"},                          // a duplicate label
		{cb, unhex(t, "9f a1 00 61 61 ff"), "SenML CBOR"},                                // indefinite length
		{cb, unhex(t, "81 a1 02 63 616263"), "SenML"},                                    // a string value
		{cb, append(unhex(t, "98 41"), bytes.Repeat([]byte{0xa0}, 65)...), "SenML CBOR"}, // 65 records
	} {
		if _, err := tc.e.Unmarshal(tc.in); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %x: error %v, want %q", tc.e.Name, tc.in, err, tc.want)
		}
	}
	if _, err := LookupEncoding("xml"); err == nil || !strings.Contains(err.Error(), "cbor, json") {
		t.Errorf("LookupEncoding(xml): %v", err)
	}
}

func FuzzSenMLCBOR(f *testing.F) {
	e, _ := LookupEncoding("cbor")
	b, _ := e.Marshal(Reading(3, Epoch))
	f.Add(b)
	f.Add(unhex(f, "81 a1 02 f9 7e00"))
	f.Fuzz(func(t *testing.T, in []byte) {
		p, err := e.Unmarshal(in)
		if err != nil {
			return
		}
		if _, err := e.Marshal(p); err != nil {
			t.Fatalf("decoded %x but cannot encode it: %v", in, err)
		}
	})
}

func TestLinkFormat(t *testing.T) {
	// RFC 6690 §5, the first example (line breaks removed).
	links, err := ParseLinks(`</sensors/temp>;rt="temperature-c";if="sensor",</sensors/light>;rt="light-lux";if="sensor"`)
	if err != nil {
		t.Fatal(err)
	}
	if len(links) != 2 || links[1].Target != "/sensors/light" {
		t.Fatalf("parsed %+v", links)
	}
	if v, ok := links[0].Attr("rt"); !ok || v != "temperature-c" {
		t.Fatalf("rt = %q, %v", v, ok)
	}
	// The sensor's registration round-trips, key included.
	k, _ := GenerateKey(Algs[0])
	s := &Sensor{Key: k, Protection: Protections[0], Encoding: Encodings[0], Resource: "temp"}
	text := FormatLinks(s.Links())
	if !strings.HasPrefix(text, `</temp>;rt="temperature";ct=18;pk=`) {
		t.Fatalf("registration payload %q", text)
	}
	back, err := ParseLinks(text)
	if err != nil {
		t.Fatal(err)
	}
	pk, err := back[0].PublicKey()
	if err != nil || !bytes.Equal(pk, k.COSEKey) {
		t.Fatalf("pk round trip: %x, %v", pk, err)
	}
	// A 77-byte COSE_Key is 103 base64url characters.
	if v, _ := back[0].Attr("pk"); len(v) != 103 {
		t.Fatalf("pk is %d characters, want 103", len(v))
	}
	// Parameters without a value, quoted escapes, spaces between links.
	links, err = ParseLinks(`</a>;obs;title="say \"hi\"" , </b>`)
	if err != nil || len(links) != 2 || links[0].Attrs[0].Name != "obs" || links[0].Attrs[1].Value != `say "hi"` {
		t.Fatalf("parsed %+v, %v", links, err)
	}
}

func TestLinkFormatRefuses(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"</a", "unterminated <target>"},
		{"/a", "want '<'"},
		{"</a>;", "parameter name"},
		{"</a>;x=", "want a value"},
		{`</a>;x="abc`, "unterminated quoted value"},
		{"</a> </b>", "want ','"},
		{"</a>;pk=%%", ""},
		{strings.Repeat("</a>,", maxLinks) + "</a>", "more than 64 links"},
		{"</a>" + strings.Repeat(";x", maxAttrs+1), "more than 32 attributes"},
		{strings.Repeat("x", maxLinkFormatBytes+1), "at most 4096"},
	} {
		links, err := ParseLinks(tc.in)
		if tc.want == "" {
			// Parses, but the key is not base64url.
			if err != nil {
				t.Errorf("%q: %v", tc.in, err)
			} else if _, err := links[0].PublicKey(); err == nil {
				t.Errorf("%q: a pk of %%%% decoded", tc.in)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.in[:min(len(tc.in), 40)], err, tc.want)
		}
	}
}

func FuzzParseLinks(f *testing.F) {
	for _, s := range []string{`</temp>;rt="temperature";ct=18;pk=pQECAyYgASFY`, `</a>;obs,</b>;x="y\"z"`, "", "<"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		links, err := ParseLinks(in)
		if err != nil {
			return
		}
		// What parses formats to text that parses to the same links.
		again, err := ParseLinks(FormatLinks(links))
		if err != nil || len(again) != len(links) {
			t.Fatalf("%q → %q: %v", in, FormatLinks(links), err)
		}
		for i := range links {
			if again[i].Target != links[i].Target || len(again[i].Attrs) != len(links[i].Attrs) {
				t.Fatalf("%q: link %d changed: %+v → %+v", in, i, links[i], again[i])
			}
		}
	})
}

// CoAPMessage.Size against a hand count and against go-coap's encoder.
func TestCoAPSize(t *testing.T) {
	// The sensor's PUT of a 97-byte COSE_Sign1 to /m/1/temp, by hand (RFC
	// 7252 §3): header 4 + token 2 + Uri-Path "m" (delta 11, 1 byte) 2 +
	// "1" (delta 0) 2 + "temp" 5 + Content-Format 18 (delta 1, 1 byte) 2 +
	// marker 1 + payload 97 = 115.
	opts := []message.Option{
		{ID: message.URIPath, Value: []byte("m")}, {ID: message.URIPath, Value: []byte("1")},
		{ID: message.URIPath, Value: []byte("temp")}, {ID: message.ContentFormat, Value: []byte{18}},
	}
	if n := (CoAPMessage{TokenBytes: 2, Options: opts, PayloadBytes: 97}).Size(); n != 115 {
		t.Fatalf("PUT size %d, want 115 by hand", n)
	}
	// Extended deltas and lengths: Uri-Query (15) after Content-Format
	// (12), a 20-byte value (length 13+7), Size1 (60, delta 45 → 13+32).
	long := []message.Option{{ID: message.URIQuery, Value: bytes.Repeat([]byte{'q'}, 20)}, {ID: message.Size1, Value: []byte{1, 0}}, {ID: message.URIPath, Value: bytes.Repeat([]byte{'p'}, 300)}}
	for _, tc := range []struct {
		name    string
		code    codes.Code
		token   int
		opts    []message.Option
		payload int
	}{
		{"PUT", codes.PUT, 2, opts, 97},
		{"empty ACK", codes.Changed, 2, nil, 0},
		{"long options", codes.POST, 8, long, 300},
		{"no token", codes.GET, 0, opts[:3], 0},
	} {
		m := pool.NewMessage(t.Context())
		m.SetCode(tc.code)
		m.SetType(message.Confirmable)
		m.SetMessageID(7)
		m.SetToken(bytes.Repeat([]byte{1}, tc.token))
		for _, o := range tc.opts {
			m.AddOptionBytes(o.ID, o.Value)
		}
		if tc.payload > 0 {
			m.SetBody(bytes.NewReader(make([]byte, tc.payload)))
		}
		b, err := m.MarshalWithEncoder(coder.DefaultCoder)
		if err != nil {
			t.Fatal(err)
		}
		if got := (CoAPMessage{TokenBytes: tc.token, Options: tc.opts, PayloadBytes: tc.payload}).Size(); got != len(b) {
			t.Errorf("%s: Size %d, go-coap encodes %d bytes", tc.name, got, len(b))
		}
	}
}
