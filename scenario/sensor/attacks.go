package sensor

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/internal/oscore"
	"github.com/cryptocost/cryptocost/link"
	"github.com/cryptocost/cryptocost/result"
	"github.com/plgd-dev/go-coap/v3/message/codes"
	udpcoder "github.com/plgd-dev/go-coap/v3/udp/coder"
)

// The attack fixtures: an attacker on the radio or at the proxy, or a
// device nobody authorised, tries to get a false reading accepted. Each
// fixture runs against a live testbed and reports whether the system's
// defence held.

// Outcome is what happened to one attack.
type Outcome struct {
	Attack string
	// Rejected says the system refused the attack; Expected is what its
	// design promises (false where it cannot defend: a compromised proxy
	// under transport security).
	Rejected, Expected bool
	// How says which party rejected it and how, or why it went
	// undetected.
	How string
}

// Attack is one fixture.
type Attack struct {
	Name    string
	Summary string
	// Object, Transport and OSCORE say which protections it applies to.
	Object, Transport, OSCORE bool
	run                       func(ctx context.Context, tb *Testbed, st *attackState) (Outcome, error)
}

// attackState carries what the earlier steps of a fixture run sent.
type attackState struct {
	next int // the next reading's number
	// lastObject is the last reading's CoAP payload as sent.
	lastPayload []byte
	lastPack    Pack
}

// Attacks is the registry of fixtures, in the order they run on one
// testbed.
var Attacks = []Attack{
	{Name: "tampered-on-link", Summary: "an attacker on the radio changes a reading's value in flight", Object: true, Transport: true, OSCORE: true, run: tamperOnLink},
	{Name: "replayed", Summary: "an attacker sends an old reading again", Object: true, Transport: true, OSCORE: true, run: replay},
	{Name: "forged", Summary: "an impostor with its own key sends a reading for the sensor's resource", Object: true, OSCORE: true, run: forge},
	{Name: "unregistered", Summary: "a device whose identity nobody authorised registers and sends readings", Object: true, Transport: true, OSCORE: true, run: unregistered},
	{Name: "tampered-at-proxy", Summary: "a compromised proxy changes the reading it serves to the application", Object: true, Transport: true, OSCORE: true, run: tamperAtProxy},
}

// forgedValue is the temperature the attacker wants accepted.
const forgedValue = 99.5

// forgedPack is pack with the attacker's value: the same encoded size.
func forgedPack(p Pack) Pack {
	f := append(Pack(nil), p...)
	f[0].Value = N(forgedValue)
	return f
}

// RunAttacks runs every fixture that applies to v on one testbed, after
// the sensor connected, registered and sent a first reading.
func RunAttacks(ctx context.Context, v Variant, enc *Encoding, params link.Params) ([]Outcome, error) {
	tb, err := NewTestbed(ctx, v, enc, params, "sensor-1")
	if err != nil {
		return nil, err
	}
	defer tb.Close()
	if err := tb.Connect(ctx); err != nil {
		return nil, err
	}
	if x, err := tb.Sensor.Register(ctx); err != nil || x.Code != codes.Created {
		return nil, fmt.Errorf("%s: registration: %v %s", v.Name(), err, x.Answer())
	}
	st := &attackState{}
	if _, err := st.send(ctx, tb); err != nil {
		return nil, err
	}
	var out []Outcome
	for _, a := range Attacks {
		if (v.Protection.Object != nil && !a.Object) || (v.Protection.Transport != nil && !a.Transport) || (v.Protection.OSCORE && !a.OSCORE) {
			continue
		}
		o, err := a.run(ctx, tb, st)
		if err != nil {
			return out, fmt.Errorf("%s: attack %s: %w", v.Name(), a.Name, err)
		}
		o.Attack = a.Name
		out = append(out, o)
	}
	return out, nil
}

// attackInterval spaces the fixtures' readings in simulated time.
const attackInterval = 600

// nextPack makes the sensor's next reading.
func (st *attackState) nextPack() Pack {
	st.lastPack = Reading(st.next, Epoch+int64(st.next)*attackInterval)
	st.next++
	return st.lastPack
}

// send has the sensor send its next reading; it must be accepted.
func (st *attackState) send(ctx context.Context, tb *Testbed) (Exchange, error) {
	x, err := tb.Sensor.Put(ctx, tb.Sensor.ResourcePath(), st.nextPack())
	if err != nil {
		return x, err
	}
	if x.Code != codes.Changed {
		return x, fmt.Errorf("a genuine reading was refused: %s", x.Answer())
	}
	st.lastPayload = tb.Sensor.LastSent
	return x, nil
}

// replaceReading rewrites the reading's value inside data, wherever the
// encoded reading appears raw (a COSE_Sign1 payload, plain SenML) or as
// base64url (a JWS payload). It reports whether it found it.
func replaceReading(data []byte, enc *Encoding, p Pack) ([]byte, bool) {
	orig, err1 := enc.Marshal(p)
	forged, err2 := enc.Marshal(forgedPack(p))
	if err1 != nil || err2 != nil || len(orig) != len(forged) {
		return data, false
	}
	if i := bytes.Index(data, orig); i >= 0 {
		out := bytes.Clone(data)
		copy(out[i:], forged)
		return out, true
	}
	o64, f64 := base64.RawURLEncoding.EncodeToString(orig), base64.RawURLEncoding.EncodeToString(forged)
	if i := bytes.Index(data, []byte(o64)); i >= 0 {
		out := bytes.Clone(data)
		copy(out[i:], f64)
		return out, true
	}
	return data, false
}

func tamperOnLink(ctx context.Context, tb *Testbed, st *attackState) (Outcome, error) {
	before := tb.Proxy.Stats()
	if tb.Variant.Protection.OSCORE {
		// The reading is encrypted: the attacker flips a ciphertext bit
		// and gives the request a fresh Partial IV and Message ID, so only
		// the AEAD tag can catch it.
		forged, err := rewriteLastOSCORE(tb.Relay, 100, true)
		if err != nil {
			return Outcome{}, err
		}
		return injectOSCORE(ctx, tb, st, forged, before, "Decryption failed",
			"the proxy answered %s: the request's AES-CCM-16-64-128 tag did not verify (RFC 8613 §8.2 step 6)")
	}
	if tb.Variant.Protection.Transport != nil {
		// The reading is encrypted: the attacker cannot find the value,
		// so it flips a ciphertext bit of the last reading's record and
		// gives it a fresh sequence number, so only the AEAD tag can
		// catch it.
		d, ok := lastUp(tb.Relay)
		if !ok {
			return Outcome{}, fmt.Errorf("no reading datagram to tamper with")
		}
		forged := bytes.Clone(d)
		seq := binary.BigEndian.Uint64(append([]byte{0, 0}, forged[5:11]...)) + 1000
		var b [8]byte
		binary.BigEndian.PutUint64(b[:], seq)
		copy(forged[5:11], b[2:])
		forged[len(forged)-12] ^= 0x01
		return injectThenSend(ctx, tb, st, forged, before,
			"the proxy's DTLS layer dropped the record: its AES-CCM-8 tag did not verify (RFC 6347 §4.1.2.7: invalid records are discarded)")
	}
	next := st.nextPack()
	tb.Relay.SetTamper(func(data []byte) []byte {
		out, _ := replaceReading(data, tb.Encoding, next)
		return out
	})
	defer tb.Relay.SetTamper(nil)
	x, err := tb.Sensor.Put(ctx, tb.Sensor.ResourcePath(), next)
	if err != nil {
		return Outcome{}, err
	}
	after := tb.Proxy.Stats()
	if after.RejectedTotal() == before.RejectedTotal() {
		return Outcome{Rejected: false, Expected: true, How: fmt.Sprintf("the proxy answered %s and stored the tampered reading", x.Answer())}, nil
	}
	// The application still has the last genuine reading.
	got, err := tb.App.Read(ctx, tb.Sensor.Name)
	if err == nil && float64(*got[0].Value) == forgedValue {
		return Outcome{Rejected: false, Expected: true, How: "the application read the tampered value"}, nil
	}
	return Outcome{Rejected: true, Expected: true, How: fmt.Sprintf("the proxy answered %s: the reading's signature does not verify against the registered key", x.Answer())}, nil
}

// lastUp returns the last uplink datagram the relay carried.
func lastUp(r *Relay) ([]byte, bool) {
	ds := r.Datagrams(0, r.Mark())
	for i := len(ds) - 1; i >= 0; i-- {
		if ds[i].Dir == result.Up && ds[i].Data != nil {
			return ds[i].Data, true
		}
	}
	return nil, false
}

// injectThenSend injects a forged datagram, then has the sensor send a
// genuine reading: datagrams of one DTLS connection are processed in
// order, so once the genuine reading is answered the forged one has been
// dealt with. The attack was rejected if the proxy accepted exactly one
// reading and answered exactly one datagram.
func injectThenSend(ctx context.Context, tb *Testbed, st *attackState, forged []byte, before ProxyStats, how string) (Outcome, error) {
	from := tb.Relay.Mark()
	if err := tb.Relay.Inject(forged); err != nil {
		return Outcome{}, err
	}
	if _, err := st.send(ctx, tb); err != nil {
		return Outcome{}, fmt.Errorf("after the forged datagram: %w", err)
	}
	downs := 0
	for _, d := range tb.Relay.Datagrams(from, tb.Relay.Mark()) {
		if d.Dir == result.Down {
			downs++
		}
	}
	after := tb.Proxy.Stats()
	if accepted := after.Accepted - before.Accepted; accepted != 1 || downs != 1 {
		return Outcome{Rejected: false, Expected: true, How: fmt.Sprintf("the proxy accepted %d readings and answered %d datagrams after the forged one", accepted, downs)}, nil
	}
	return Outcome{Rejected: true, Expected: true, How: how}, nil
}

func replay(ctx context.Context, tb *Testbed, st *attackState) (Outcome, error) {
	before := tb.Proxy.Stats()
	if tb.Variant.Protection.OSCORE {
		// The old protected request in a new CoAP message (a fresh Message
		// ID, so CoAP's deduplication does not answer it from its cache).
		old, err := rewriteLastOSCORE(tb.Relay, 0, false)
		if err != nil {
			return Outcome{}, err
		}
		return injectOSCORE(ctx, tb, st, old, before, "Replay detected",
			"the proxy answered %s: the request's Partial IV was already received (RFC 8613 §7.4 replay window)")
	}
	if tb.Variant.Protection.Transport != nil {
		d, ok := lastUp(tb.Relay)
		if !ok {
			return Outcome{}, fmt.Errorf("no reading datagram to replay")
		}
		return injectThenSend(ctx, tb, st, bytes.Clone(d), before,
			"the proxy's DTLS layer dropped the copy: its sequence number was already seen (RFC 6347 §4.1.2.6 anti-replay window)")
	}
	// A copy of the datagram would only meet CoAP's deduplication; the
	// attacker sends the old signed reading in a new CoAP message.
	old := st.lastPayload
	if _, err := st.send(ctx, tb); err != nil {
		return Outcome{}, err
	}
	x, err := tb.Sensor.PutRaw(ctx, tb.Sensor.ResourcePath(), tb.Variant.Protection.Object.ContentFormat(), old)
	if err != nil {
		return Outcome{}, err
	}
	if !x.Rejected() {
		return Outcome{Rejected: false, Expected: true, How: fmt.Sprintf("the proxy answered %s to the old reading", x.Answer())}, nil
	}
	return Outcome{Rejected: true, Expected: true, How: fmt.Sprintf("the proxy answered %s: the signed reading's time is not newer than the last it accepted", x.Answer())}, nil
}

func forge(ctx context.Context, tb *Testbed, st *attackState) (Outcome, error) {
	if tb.Variant.Protection.OSCORE {
		// An impostor with its own key claims the sensor's name in its CCS.
		return edhocRefused(ctx, tb, tb.Sensor.Name, "the impostor's EDHOC session")
	}
	k, err := GenerateKey(tb.Variant.Alg)
	if err != nil {
		return Outcome{}, err
	}
	payload, err := tb.Encoding.Marshal(forgedPack(Reading(st.next, Epoch+int64(st.next+1000)*attackInterval)))
	if err != nil {
		return Outcome{}, err
	}
	obj, err := tb.Variant.Protection.Object.Sign(k, payload)
	if err != nil {
		return Outcome{}, err
	}
	imp := &Sensor{Name: "impostor", Protection: tb.Variant.Protection, Encoding: tb.Encoding, Resource: "temp", Key: k}
	if err := imp.Dial(ctx, tb.ProxyUDP, nil); err != nil {
		return Outcome{}, err
	}
	defer imp.Close()
	x, err := imp.PutRaw(ctx, tb.Sensor.ResourcePath(), tb.Variant.Protection.Object.ContentFormat(), obj)
	if err != nil {
		return Outcome{}, err
	}
	if !x.Rejected() {
		return Outcome{Rejected: false, Expected: true, How: fmt.Sprintf("the proxy answered %s to the impostor", x.Answer())}, nil
	}
	// Registering its own key for the sensor's name fails too: the
	// identity h(key | name) is not on the list.
	imp.Name = tb.Sensor.Name
	rx, err := imp.Register(ctx)
	if err == nil && !rx.Rejected() {
		return Outcome{Rejected: false, Expected: true, How: "the directory accepted the impostor's key for the sensor's name"}, nil
	}
	return Outcome{Rejected: true, Expected: true, How: fmt.Sprintf("the proxy answered %s; registering its key under the sensor's name: %s (h(key | name) is not on the list)",
		x.Answer(), rx.Answer())}, nil
}

func unregistered(ctx context.Context, tb *Testbed, st *attackState) (Outcome, error) {
	v := tb.Variant
	if v.Protection.OSCORE {
		return edhocRefused(ctx, tb, "rogue-1", "the rogue device's EDHOC session")
	}
	rogue := &Sensor{Name: "rogue-1", Protection: v.Protection, CID: v.CID, Encoding: tb.Encoding, Resource: "temp", FlightInterval: tb.Sensor.FlightInterval}
	if v.Alg != nil {
		k, err := GenerateKey(v.Alg)
		if err != nil {
			return Outcome{}, err
		}
		rogue.Key = k
		if rogue.Credential, err = NewCredential(k, rogue.Name); err != nil {
			return Outcome{}, err
		}
	}
	if t := v.Protection.Transport; t != nil {
		rogue.PSK = bytes.Repeat([]byte{0x42}, pskBytes)
		hctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		err := rogue.Dial(hctx, tb.ProxyDTLS, tb.proxyKey)
		if err == nil {
			rogue.Close()
			return Outcome{Rejected: false, Expected: true, How: "the proxy completed a DTLS handshake with an unauthorised device"}, nil
		}
		why := "its certificate's identity is not on the list"
		if t.Kind == "psk" {
			why = "the proxy has no PSK for its identity"
		}
		return Outcome{Rejected: true, Expected: true, How: "the DTLS handshake failed: " + why + " (" + shorten(err.Error()) + ")"}, nil
	}
	if err := rogue.Dial(ctx, tb.ProxyUDP, nil); err != nil {
		return Outcome{}, err
	}
	defer rogue.Close()
	x, err := rogue.Register(ctx)
	if err == nil && !x.Rejected() {
		return Outcome{Rejected: false, Expected: true, How: "the directory registered a device whose identity is not on the list"}, nil
	}
	if err != nil && x.Code == 0 {
		return Outcome{}, err
	}
	// Without a registration it has no resource: its readings go nowhere.
	payload, _ := tb.Encoding.Marshal(Reading(0, Epoch))
	obj, err := v.Protection.Object.Sign(rogue.Key, payload)
	if err != nil {
		return Outcome{}, err
	}
	px, err := rogue.PutRaw(ctx, "/m/99/temp", v.Protection.Object.ContentFormat(), obj)
	if err != nil {
		return Outcome{}, err
	}
	return Outcome{Rejected: x.Rejected() && px.Rejected(), Expected: true, How: fmt.Sprintf("the directory answered %s; a reading to an unregistered resource: %s",
		x.Answer(), px.Answer())}, nil
}

func tamperAtProxy(ctx context.Context, tb *Testbed, st *attackState) (Outcome, error) {
	if _, err := st.send(ctx, tb); err != nil {
		return Outcome{}, err
	}
	pack := st.lastPack
	tb.Proxy.SetCompromise(func(stored []byte) []byte {
		out, _ := replaceReading(stored, tb.Encoding, pack)
		return out
	})
	defer tb.Proxy.SetCompromise(nil)
	// The application has read every earlier reading; this one it has not.
	got, err := tb.App.Read(ctx, tb.Sensor.Name)
	switch {
	case errors.Is(err, ErrNotEndToEnd):
		if float64(*got[0].Value) != forgedValue {
			return Outcome{}, fmt.Errorf("the compromised proxy's change did not reach the application")
		}
		layer := "DTLS"
		if tb.Variant.Protection.OSCORE {
			layer = "OSCORE (the proxy is its endpoint)"
		}
		return Outcome{Rejected: false, Expected: false, How: fmt.Sprintf("not detected: the application read %.1f °C, the proxy's value; %s protected only the hop to the proxy", forgedValue, layer)}, nil
	case err != nil:
		return Outcome{Rejected: true, Expected: true, How: "the application rejected the reading: " + shorten(err.Error())}, nil
	}
	return Outcome{Rejected: false, Expected: true, How: fmt.Sprintf("the application accepted %v", got)}, nil
}

func shorten(s string) string {
	if i := strings.Index(s, ": "); i > 0 && len(s) > 160 {
		return s[:160] + "…"
	}
	return s
}

// rewriteLastOSCORE copies the sensor's last OSCORE request as an attacker
// would resend it: a new Message ID, the Partial IV advanced by bump, and
// with flip a ciphertext bit flipped.
func rewriteLastOSCORE(r *Relay, bump uint64, flip bool) ([]byte, error) {
	d, ok := lastUp(r)
	if !ok {
		return nil, fmt.Errorf("no reading datagram to copy")
	}
	m, ok := decodeCoAP(d)
	if !ok {
		return nil, fmt.Errorf("the last datagram is not CoAP")
	}
	m.MessageID = (m.MessageID + 1000) & 0xffff
	if bump > 0 {
		for i, o := range m.Options {
			if o.ID != oscore.OptionOSCORE || len(o.Value) == 0 {
				continue
			}
			n := int(o.Value[0] & 7)
			seq := uint64(0)
			for _, b := range o.Value[1 : 1+n] {
				seq = seq<<8 | uint64(b)
			}
			seq += bump
			piv := []byte{byte(seq >> 8), byte(seq)}
			if seq < 256 {
				piv = piv[1:]
			}
			v := append([]byte{o.Value[0]&^7 | byte(len(piv))}, piv...)
			m.Options[i].Value = append(v, o.Value[1+n:]...)
		}
	}
	if flip {
		m.Payload = bytes.Clone(m.Payload)
		m.Payload[len(m.Payload)-oscoreTag-1] ^= 0x01
	}
	buf := make([]byte, len(d)+8)
	n, err := udpcoder.DefaultCoder.Encode(m, buf)
	if err != nil {
		return nil, err
	}
	return buf[:n], nil
}

// injectOSCORE injects a forged OSCORE request and waits for the proxy's
// answer to it; the attack was rejected if the answer is an error, the
// proxy counted the reason and accepted nothing. The sensor then sends a
// genuine reading, which must still be accepted.
func injectOSCORE(ctx context.Context, tb *Testbed, st *attackState, forged []byte, before ProxyStats, reason, how string) (Outcome, error) {
	from := tb.Relay.Mark()
	if err := tb.Relay.Inject(forged); err != nil {
		return Outcome{}, err
	}
	answer, err := waitDown(ctx, tb.Relay, from)
	if err != nil {
		return Outcome{}, err
	}
	after := tb.Proxy.Stats()
	m, _ := decodeCoAP(answer)
	code := Exchange{Code: m.Code, Diagnostic: string(m.Payload)}
	if _, err := st.send(ctx, tb); err != nil {
		return Outcome{}, fmt.Errorf("after the forged request: %w", err)
	}
	if after.Accepted != before.Accepted || after.Rejected[reason] != before.Rejected[reason]+1 || !code.Rejected() {
		return Outcome{Rejected: false, Expected: true, How: fmt.Sprintf("the proxy answered %s and accepted %d readings", code.Answer(), after.Accepted-before.Accepted)}, nil
	}
	return Outcome{Rejected: true, Expected: true, How: fmt.Sprintf(how, code.Answer())}, nil
}

// waitDown waits until the relay carries a downlink datagram after mark
// from: the proxy's answer (bounded by the sensor's request timeout).
func waitDown(ctx context.Context, r *Relay, from int) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, sensorTimeout)
	defer cancel()
	for {
		for _, d := range r.Datagrams(from, r.Mark()) {
			if d.Dir == result.Down && d.Data != nil {
				return d.Data, nil
			}
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("the proxy did not answer the forged request: %w", ctx.Err())
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// edhocRefused has a device with its own key, not on the installers' list,
// run EDHOC under name and register: the proxy must refuse message_3.
func edhocRefused(ctx context.Context, tb *Testbed, name, who string) (Outcome, error) {
	imp, err := tb.edhocImpostor(name)
	if err != nil {
		return Outcome{}, err
	}
	if err := imp.Dial(ctx, tb.ProxyUDP, nil); err != nil {
		return Outcome{}, err
	}
	defer imp.Close()
	x, err := imp.Register(ctx)
	if err != nil && x.Code == 0 {
		return Outcome{}, err
	}
	if !x.Rejected() {
		return Outcome{Rejected: false, Expected: true, How: "the proxy accepted " + who + " and its registration"}, nil
	}
	return Outcome{Rejected: true, Expected: true, How: fmt.Sprintf("the proxy refused %s at message_3: %s (its CCS's identity h(key | %s) is not on the list)", who, x.Answer(), name)}, nil
}
