package sensor

import (
	"fmt"

	"github.com/cryptocost/cryptocost/result"
)

// Byte accounting: the bytes the link carried must be the sum of the
// messages' encodings. For plain CoAP, the datagrams' payloads are the
// CoAP messages: their sizes, computed from the decoded messages by RFC
// 7252 §3 at the receiving end (the proxy for requests, the sensor for
// responses), must add up to what crossed the link. For DTLS, each
// datagram must be exactly a sequence of records, and the protected
// records of the registration and the readings must be the CoAP messages
// plus the cipher suite's overhead (RFC 6655 §3: an 8-byte explicit nonce
// and an 8-byte tag) and, with a Connection ID, the CID in the header and
// the inner content type byte (RFC 9146 §4).

// CheckBytes compares the link's bytes with the messages' sizes and
// returns a one-line account, or an error naming the mismatch.
func CheckBytes(s *Session) (string, error) {
	var wins []Window
	wins = append(wins, s.Registration)
	wins = append(wins, s.Reading...)
	var linkUp, linkDown int
	for _, w := range wins {
		for _, d := range w.Of(s.Datagrams) {
			if d.Dir == result.Up {
				linkUp += d.Bytes
			} else {
				linkDown += d.Bytes
			}
		}
	}
	var coapUp, coapDown int
	for _, n := range s.RequestSizes {
		coapUp += n
	}
	for _, x := range s.Exchanges {
		coapDown += x.ResponseBytes
	}
	t := s.Variant.Protection.Transport
	if t == nil {
		if coapUp != linkUp || coapDown != linkDown {
			return "", fmt.Errorf("byte accounting: the link carried %d B up and %d B down, the CoAP messages add up to %d B up and %d B down", linkUp, linkDown, coapUp, coapDown)
		}
		return fmt.Sprintf("ok: %d CoAP requests (%d B) and responses (%d B), sized by RFC 7252 §3 from the decoded messages, are exactly the %d B up and %d B down the link carried",
			len(s.RequestSizes), coapUp, coapDown, linkUp, linkDown), nil
	}
	// Every datagram of the session must be whole records.
	cidUp := 0
	if s.Variant.CID {
		cidUp = cidBytes
	}
	for i, d := range s.Datagrams {
		if d.Data == nil {
			continue
		}
		cid := 0
		if d.Dir == result.Up {
			cid = cidUp
		}
		rs, err := ParseRecords(d.Data, cid)
		if err != nil {
			return "", fmt.Errorf("byte accounting: datagram %d (%s, %d B): %w", i, d.Dir, d.Bytes, err)
		}
		n := 0
		for _, r := range rs {
			n += r.Bytes()
		}
		if n != d.Bytes {
			return "", fmt.Errorf("byte accounting: datagram %d's records are %d B, the datagram %d B", i, n, d.Bytes)
		}
	}
	var recUp, recDown, nUp, nDown int
	for _, w := range wins {
		for _, d := range w.Of(s.Datagrams) {
			cid := 0
			if d.Dir == result.Up {
				cid = cidUp
			}
			rs, _ := ParseRecords(d.Data, cid)
			for _, r := range rs {
				if d.Dir == result.Up {
					recUp += r.Length
					nUp++
				} else {
					recDown += r.Length
					nDown++
				}
			}
		}
	}
	inner := 0
	if s.Variant.CID {
		inner = 1 // the real content type inside a tls12_cid record
	}
	wantUp := coapUp + nUp*(t.AEADOverhead+inner)
	wantDown := coapDown + nDown*t.AEADOverhead
	if recUp != wantUp || recDown != wantDown {
		return "", fmt.Errorf("byte accounting: the protected records carried %d B up and %d B down; CoAP %d B + %d × %d B overhead up and %d B + %d × %d B down make %d and %d",
			recUp, recDown, coapUp, nUp, t.AEADOverhead+inner, coapDown, nDown, t.AEADOverhead, wantUp, wantDown)
	}
	return fmt.Sprintf("ok: every datagram is whole DTLS records; the %d records up (%d B) are the CoAP requests' %d B + %d B each (%s nonce and tag%s), the %d down (%d B) the responses' %d B + %d B each",
		nUp, recUp, coapUp, t.AEADOverhead+inner, t.SuiteName, map[bool]string{true: ", inner content type", false: ""}[s.Variant.CID], nDown, recDown, coapDown, t.AEADOverhead), nil
}
