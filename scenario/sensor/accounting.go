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
		msg := fmt.Sprintf("ok: %d CoAP requests (%d B) and responses (%d B), sized by RFC 7252 §3 from the decoded messages, are exactly the %d B up and %d B down the link carried",
			len(s.RequestSizes), coapUp, coapDown, linkUp, linkDown)
		if s.EDHOC != nil {
			extra, err := checkOSCORE(s)
			if err != nil {
				return "", err
			}
			msg += "; " + extra
		}
		return msg, nil
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

// checkOSCORE checks the EDHOC session's datagrams and the OSCORE
// requests: message_1's request and message_2's response are the session
// window's bytes; every OSCORE ciphertext is the inner request's
// plaintext (Code, Inner options, payload; RFC 8613 §5.3) plus the 8-byte
// AES-CCM-16-64-128 tag; the message_3s the proxy took from the combined
// request are the size the sensor composed.
func checkOSCORE(s *Session) (string, error) {
	var up, down int
	for _, d := range s.Connect.Of(s.Datagrams) {
		if d.Dir == result.Up {
			up += d.Bytes
		} else {
			down += d.Bytes
		}
	}
	wantUp := 0
	for _, n := range s.SessionRequests {
		wantUp += n
	}
	if up != wantUp || down != s.EDHOC.Message2Response {
		return "", fmt.Errorf("byte accounting: the EDHOC exchange carried %d B up and %d B down; message_1's request is %d B and message_2's response %d B", up, down, wantUp, s.EDHOC.Message2Response)
	}
	for i, o := range s.OSCORE {
		pt := o.Inner - coapHeaderBytes - o.TokenBytes + 1
		if o.Ciphertext != pt+oscoreTag {
			return "", fmt.Errorf("byte accounting: OSCORE request %d: ciphertext %d B, the inner request's plaintext %d B + %d B tag make %d", i, o.Ciphertext, pt, oscoreTag, pt+oscoreTag)
		}
	}
	if len(s.Message3) != 1 || s.Message3[0] != s.EDHOC.Message3 {
		return "", fmt.Errorf("byte accounting: the proxy received message_3s of %v B, the sensor composed one of %d B", s.Message3, s.EDHOC.Message3)
	}
	return fmt.Sprintf("EDHOC: message_1's request %d B and message_2's response %d B are the session's link bytes; message_3 (%d B) arrived whole in the first OSCORE request; the %d OSCORE ciphertexts are each the inner request's plaintext + %d B tag (RFC 8613 §5.3)",
		wantUp, down, s.EDHOC.Message3, len(s.OSCORE), oscoreTag), nil
}

// oscoreTag is AES-CCM-16-64-128's tag (RFC 9053 §4.2).
const oscoreTag = 8
