package sensor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/cryptocost/cryptocost/link"
	"github.com/plgd-dev/go-coap/v3/message/codes"
)

// Session is what one variant's run recorded: the datagrams that crossed
// the sensor's link, cut into the session setup (the DTLS handshake), the
// registration, each reading and the teardown; the CoAP messages at both
// ends; and the crypto operations timed in place.
type Session struct {
	Variant  Variant
	Identity Identity
	Readings int
	// Windows of Datagrams.
	Connect, Registration, Teardown Window
	Reading                         []Window
	Datagrams                       []Datagram
	// HandshakeTime is the DTLS handshake's wall time as the sensor saw
	// it, through the emulated link (0 without DTLS).
	HandshakeTime time.Duration
	// Exchanges are the registration's, then each reading's, as the sensor
	// saw them; RequestSizes the CoAP requests the proxy received from the
	// sensor, in the same order.
	Exchanges    []Exchange
	RequestSizes []int
	// Times of the crypto operations done in place (ns).
	SignNs, HandshakeSignNs, ProxyVerifyNs, AppVerifyNs []float64
	// AppVerified counts readings the application verified end to end;
	// AppUnverifiable those it could not (DTLS).
	AppVerified, AppUnverifiable int
	// ReadingBytes is the SenML reading; ObjectBytes the signed object
	// carrying it (0 for DTLS); PayloadBytes the CoAP payload (the object,
	// or the reading over DTLS).
	ReadingBytes, ObjectBytes, PayloadBytes int
	// Interrupted says the context ended the readings early.
	Interrupted bool
	// EDHOC is the sensor's EDHOC side (edhoc-oscore), SessionRequests the
	// CoAP sizes of the requests before the registration (message_1), and
	// OSCORE the proxy's sizes of the OSCORE requests and message_3s.
	EDHOC           *EDHOCInitiator
	SessionRequests []int
	OSCORE          []OSCORESizes
	Message3        []int
}

// Window is a range [From, To) of a session's datagrams.
type Window struct{ From, To int }

// Of returns the datagrams in the window.
func (w Window) Of(ds []Datagram) []Datagram { return ds[w.From:w.To] }

// Epoch is the time of the first simulated reading (2023-11-14T22:13:20Z):
// reading i is taken at Epoch + i × interval, the clock a sensor waking
// every interval would keep; the run itself does not wait.
const Epoch = 1_700_000_000

// MeasureSession runs one variant: the sensor connects through the link,
// registers, sends readings (each read back and verified by the
// application through the proxy), and disconnects.
func MeasureSession(ctx context.Context, v Variant, enc *Encoding, params link.Params, readings int, interval time.Duration, log io.Writer) (*Session, error) {
	if log == nil {
		log = io.Discard
	}
	tb, err := NewTestbed(ctx, v, enc, params, "sensor-1")
	if err != nil {
		return nil, err
	}
	defer tb.Close()
	s := &Session{Variant: v, Identity: tb.Identity, Readings: readings}
	if v.Alg != nil {
		key := v.Alg.Name
		if v.EDHOC != nil && v.EDHOC.Method == 3 {
			key = edhocSuite(v.Alg).Curve.Name() + " static DH"
		}
		fmt.Fprintf(log, "%s: sensor %s generated its %s key; identity %s (the installer's label)\n", v.Name(), tb.Sensor.Name, key, tb.Identity)
	}
	relay := tb.Relay
	step := func(what string, f func() error) (Window, error) {
		w := Window{From: relay.Mark()}
		err := f()
		w.To = relay.Mark()
		if err != nil {
			return w, fmt.Errorf("%s: %s: %w", v.Name(), what, err)
		}
		return w, nil
	}
	start := time.Now()
	if s.Connect, err = step("connect", func() error { return tb.Connect(ctx) }); err != nil {
		return nil, err
	}
	if v.Protection.Transport != nil {
		s.HandshakeTime = time.Since(start)
		s.HandshakeSignNs = tb.Sensor.HandshakeSign.Samples()
	}
	if e := tb.Sensor.EDHOC; e != nil {
		// message_1 and message_2; message_3 goes with the registration.
		s.HandshakeTime = time.Since(start)
		s.EDHOC = e
	}
	var x Exchange
	s.Registration, err = step("registration", func() error {
		var err error
		if x, err = tb.Sensor.Register(ctx); err == nil && x.Code != codes.Created {
			err = fmt.Errorf("the proxy answered %s", x.Answer())
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	s.Exchanges = append(s.Exchanges, x)
	path := tb.Sensor.ResourcePath()
	for i := range readings {
		if ctx.Err() != nil {
			s.Interrupted = true
			break
		}
		pack := Reading(i, Epoch+int64(i)*int64(interval/time.Second))
		if i == 0 {
			b, _ := enc.Marshal(pack)
			s.ReadingBytes = len(b)
		}
		w, err := step(fmt.Sprintf("reading %d", i), func() error {
			var err error
			if x, err = tb.Sensor.Put(ctx, path, pack); err == nil && x.Code != codes.Changed {
				err = fmt.Errorf("the proxy answered %s", x.Answer())
			}
			return err
		})
		if err != nil {
			if ctx.Err() != nil {
				s.Interrupted = true
				break
			}
			return nil, err
		}
		s.Reading = append(s.Reading, w)
		s.Exchanges = append(s.Exchanges, x)
		got, err := tb.App.Read(ctx, tb.Sensor.Name)
		switch {
		case err != nil && ctx.Err() != nil:
			s.Interrupted = true
		case errors.Is(err, ErrNotEndToEnd):
			s.AppUnverifiable++
		case err != nil:
			return nil, fmt.Errorf("%s: the application rejected reading %d: %w", v.Name(), i, err)
		default:
			s.AppVerified++
		}
		if s.Interrupted {
			break
		}
		if t, _ := ReadingTime(got); t != float64(Epoch+int64(i)*int64(interval/time.Second)) {
			return nil, fmt.Errorf("%s: the application read reading time %v, want reading %d's", v.Name(), t, i)
		}
	}
	s.Teardown.From = relay.Mark()
	tb.Sensor.Close()
	// The close_notify (and any answer) crosses the link after Close
	// returns: wait until the link has been quiet for a moment.
	s.Teardown.To = waitQuiet(relay, 100*time.Millisecond, time.Second)
	s.Datagrams = relay.Datagrams(0, s.Teardown.To)
	s.RequestSizes = tb.Proxy.ReceivedFrom(relay.BackAddr())
	if s.EDHOC != nil && len(s.RequestSizes) > 0 {
		s.SessionRequests, s.RequestSizes = s.RequestSizes[:1], s.RequestSizes[1:]
	}
	st := tb.Proxy.Stats()
	s.OSCORE, s.Message3 = st.OSCOREInner, st.EDHOCMessage3
	s.SignNs = tb.Sensor.SignNs
	s.ProxyVerifyNs = st.VerifyNs
	s.AppVerifyNs = tb.App.VerifyNs
	s.PayloadBytes = tb.Sensor.LastPayload
	if v.Protection.Object != nil {
		s.ObjectBytes = s.PayloadBytes
	}
	if s.Interrupted && len(s.RequestSizes) > len(s.Exchanges) {
		// The interrupted request reached the proxy; its answer did not
		// come back, so it is in no exchange.
		s.RequestSizes = s.RequestSizes[:len(s.Exchanges)]
	}
	if len(s.RequestSizes) != len(s.Exchanges) {
		return nil, fmt.Errorf("%s: the proxy received %d requests from the sensor and the sensor made %d exchanges: a request was lost or duplicated", v.Name(), len(s.RequestSizes), len(s.Exchanges))
	}
	return s, nil
}

// CoAPHeaderBytes is a reading request's size besides its payload: the
// CoAP header, token, options and payload marker (the model's
// coap_bytes).
func (s *Session) CoAPHeaderBytes() int {
	if len(s.RequestSizes) < 2 {
		return 0
	}
	return s.RequestSizes[1] - s.PayloadBytes
}

// waitQuiet returns the relay's mark once no datagram has arrived for
// quiet, or after max.
func waitQuiet(r *Relay, quiet, max time.Duration) int {
	deadline := time.Now().Add(max)
	last, since := r.Mark(), time.Now()
	for time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
		if m := r.Mark(); m != last {
			last, since = m, time.Now()
		} else if time.Since(since) >= quiet {
			break
		}
	}
	return last
}
