package sensor

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/fxamacker/cbor/v2"
	"github.com/plgd-dev/go-coap/v3/message"
)

// SenML (RFC 8428), the few fields a sensor reading needs, written here
// because no maintained Go module for it is reachable (farshidtz/senml is
// not). A Pack is an array of records.

// Record is one SenML record. CBOR uses the integer labels of RFC 8428 §6
// Table 6 (bn −2, bt −3, n 0, u 1, v 2, t 6); JSON the names of §4.
type Record struct {
	BaseName string  `cbor:"-2,keyasint,omitempty" json:"bn,omitempty"`
	BaseTime *Number `cbor:"-3,keyasint,omitempty" json:"bt,omitempty"`
	Name     string  `cbor:"0,keyasint,omitempty" json:"n,omitempty"`
	Unit     string  `cbor:"1,keyasint,omitempty" json:"u,omitempty"`
	Value    *Number `cbor:"2,keyasint,omitempty" json:"v,omitempty"`
	Time     *Number `cbor:"6,keyasint,omitempty" json:"t,omitempty"`
}

// Pack is a SenML pack.
type Pack []Record

// Number is a SenML number. RFC 8428 §6 lets CBOR carry any numeric type,
// so a whole number is written as a CBOR integer (a Unix time in 5 bytes,
// not 9) and others in the shortest float that keeps the value (RFC 8949
// §4.2.2's preferred serialisation: 23.5 is a 3-byte half float).
type Number float64

// N returns a pointer to a Number, for Record literals.
func N(v float64) *Number { n := Number(v); return &n }

// maxExactInt is 2^53: integers beyond it are not exact in a float64.
const maxExactInt = 1 << 53

var senmlEnc = func() cbor.EncMode {
	em, err := cbor.EncOptions{
		Sort:          cbor.SortCoreDeterministic,
		ShortestFloat: cbor.ShortestFloat16,
		IndefLength:   cbor.IndefLengthForbidden,
	}.EncMode()
	if err != nil {
		panic(err)
	}
	return em
}()

// senmlDec bounds what a received pack may hold: a proxy decodes what
// sensors (or attackers) send.
var senmlDec = func() cbor.DecMode {
	dm, err := cbor.DecOptions{
		MaxArrayElements: maxRecords,
		MaxMapPairs:      16,
		MaxNestedLevels:  4,
		DupMapKey:        cbor.DupMapKeyEnforcedAPF,
		IndefLength:      cbor.IndefLengthForbidden,
	}.DecMode()
	if err != nil {
		panic(err)
	}
	return dm
}()

// maxRecords bounds a pack; a reading has one record.
const maxRecords = 64

// MarshalCBOR writes a whole number as a CBOR integer, others as the
// shortest float.
func (n Number) MarshalCBOR() ([]byte, error) {
	v := float64(n)
	if v == math.Trunc(v) && math.Abs(v) <= maxExactInt {
		return senmlEnc.Marshal(int64(v))
	}
	return senmlEnc.Marshal(v)
}

// UnmarshalCBOR reads an integer or a float.
func (n *Number) UnmarshalCBOR(b []byte) error {
	var v any
	if err := senmlDec.Unmarshal(b, &v); err != nil {
		return err
	}
	switch x := v.(type) {
	case uint64:
		*n = Number(x)
	case int64:
		*n = Number(x)
	case float64:
		*n = Number(x)
	default:
		return fmt.Errorf("SenML number: got %T", v)
	}
	return nil
}

// MarshalJSON writes the shortest decimal that reads back as the value.
func (n Number) MarshalJSON() ([]byte, error) {
	v := float64(n)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil, fmt.Errorf("SenML number %v: JSON has no NaN or infinity", v)
	}
	return []byte(strconv.FormatFloat(v, 'f', -1, 64)), nil
}

// Encoding is a SenML representation with its CoAP Content-Format.
type Encoding struct {
	Name          string
	ContentFormat message.MediaType
	Marshal       func(Pack) ([]byte, error)
	Unmarshal     func([]byte) (Pack, error)
}

// Encodings are the SenML representations (RFC 8428 §12.3 registers
// Content-Formats 110 for senml+json and 112 for senml+cbor).
var Encodings = []*Encoding{
	{Name: "cbor", ContentFormat: message.AppSenmlCbor,
		Marshal: func(p Pack) ([]byte, error) { return senmlEnc.Marshal(p) },
		Unmarshal: func(b []byte) (Pack, error) {
			var p Pack
			if err := senmlDec.Unmarshal(b, &p); err != nil {
				return nil, fmt.Errorf("SenML CBOR: %w", err)
			}
			return p, nil
		}},
	{Name: "json", ContentFormat: message.AppSenmlJSON,
		Marshal: func(p Pack) ([]byte, error) { return json.Marshal(p) },
		Unmarshal: func(b []byte) (Pack, error) {
			var p Pack
			if err := json.Unmarshal(b, &p); err != nil {
				return nil, fmt.Errorf("SenML JSON: %w", err)
			}
			if len(p) > maxRecords {
				return nil, fmt.Errorf("SenML JSON: %d records, at most %d", len(p), maxRecords)
			}
			return p, nil
		}},
}

// LookupEncoding returns the SenML encoding named name.
func LookupEncoding(name string) (*Encoding, error) {
	var names []string
	for _, e := range Encodings {
		if strings.EqualFold(e.Name, name) {
			return e, nil
		}
		names = append(names, e.Name)
	}
	return nil, fmt.Errorf("unknown SenML encoding %q: want one of %s", name, strings.Join(names, ", "))
}

// Reading is the scenario's sensor reading number i: a temperature in
// degrees Celsius (unit "Cel", RFC 8428 §12.1) at an absolute time (RFC
// 8428 §4.5.3: values ≥ 2^28 are seconds since the Unix epoch). The values
// cycle through 20.5, 21.5, … 29.5: each is a CBOR half float and four
// JSON characters, so every reading encodes to the same size.
func Reading(i int, at int64) Pack {
	return Pack{{Name: "temp", Unit: "Cel", Value: N(20.5 + float64(i%10)), Time: N(float64(at))}}
}

// ReadingTime returns the time of a pack's first record (base time plus
// time), for freshness checks.
func ReadingTime(p Pack) (float64, error) {
	if len(p) == 0 {
		return 0, fmt.Errorf("empty SenML pack")
	}
	var t float64
	if p[0].BaseTime != nil {
		t = float64(*p[0].BaseTime)
	}
	if p[0].Time == nil {
		return 0, fmt.Errorf("SenML record without a time: readings must say when they were taken (freshness)")
	}
	return t + float64(*p[0].Time), nil
}
