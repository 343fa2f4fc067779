package sensor

import (
	"fmt"

	"github.com/cryptocost/cryptocost/radio"
	"github.com/cryptocost/cryptocost/result"
)

// AirModel counts the bytes an IEEE 802.15.4 radio puts on the air for a
// trace of UDP datagrams: package radio's framing (6LoWPAN IPHC and UDP
// NHC headers, RFC 4944 FRAG1/FRAGN fragmentation into 127-byte frames),
// plus each frame's MAC header, FCS and PHY header, plus the MAC
// acknowledgement of every frame, sent the other way. It reads the sizes
// from a radio profile, so the byte counts and the radio energy come from
// the same numbers.
type AirModel struct {
	Profile *radio.Profile
	// lora is set for a LoRaWAN profile: SCHC frames (RFC 9011), no MAC
	// acknowledgements; frames is the 802.15.4 framing otherwise.
	lora     *radio.LoRaWAN
	frames   *radio.IEEE802154
	perFrame int // PHY header + MAC header + FCS
	ack      int // an acknowledgement frame on air, PHY header included; 0 without ACKs
}

// DefaultAirProfile is the radio profile the air bytes are counted with
// when no 802.15.4 radio was named: the TelosB's CC2420 with 6LoWPAN.
const DefaultAirProfile = "ieee802154-telosb"

// NewAirModel reads the framing of an ieee802154 radio profile.
func NewAirModel(p *radio.Profile) (*AirModel, error) {
	if l, ok := p.Model.(*radio.LoRaWAN); ok {
		return &AirModel{Profile: p, lora: l}, nil
	}
	m, ok := p.Model.(*radio.IEEE802154)
	if !ok {
		return nil, fmt.Errorf("radio %s is %s, not IEEE 802.15.4 or LoRaWAN: no frame model", p.Name, p.Technology)
	}
	a := &AirModel{Profile: p, frames: m}
	get := func(field string) (int, bool) {
		for _, q := range p.Params {
			if q.Field == field {
				v, err := q.Quantity.In("B")
				return int(v), err == nil
			}
		}
		return 0, false
	}
	for _, f := range []string{"params.frame.phy_header", "params.frame.mac_header", "params.frame.mac_footer"} {
		v, ok := get(f)
		if !ok {
			return nil, fmt.Errorf("radio %s: no %s in bytes", p.Name, f)
		}
		a.perFrame += v
	}
	if v, ok := get("params.ack.frame"); ok {
		phy, _ := get("params.frame.phy_header")
		a.ack = v + phy
	}
	return a, nil
}

// Packet returns the frames and the bytes on the air of one UDP datagram
// of payload bytes (its acknowledgements not included).
func (a *AirModel) Packet(payload int) (frames, air int) {
	if a.lora != nil {
		fs, _ := a.lora.UplinkFrames(payload)
		for _, f := range fs {
			frames, air = frames+1, air+f
		}
		return frames, air
	}
	for _, mac := range a.frames.Frames(payload) {
		frames++
		air += mac + a.perFrame
	}
	return frames, air
}

// Air is a direction's share of an exchange on the air.
type Air struct {
	// Frames are the data frames sent.
	Frames int
	// Bytes are those frames on the air plus the acknowledgements sent
	// for the frames received.
	Bytes int
}

// Count returns what each direction put on the air for the trace's
// datagrams (Packet.Payload is the UDP payload; packets without payload
// are ignored).
func (a *AirModel) Count(pkts []result.Packet) (up, down Air) {
	if a.lora != nil {
		return a.countLoRaWAN(pkts)
	}
	for _, p := range pkts {
		if p.Payload <= 0 {
			continue
		}
		f, b := a.Packet(p.Payload)
		if p.Dir == result.Up {
			up.Frames += f
			up.Bytes += b
			down.Bytes += f * a.ack
		} else {
			down.Frames += f
			down.Bytes += b
			up.Bytes += f * a.ack
		}
	}
	return up, down
}

// HeaderModel says how a datagram becomes frames, for the trace and the
// docs.
func (a *AirModel) HeaderModel() string {
	if a.lora != nil {
		return fmt.Sprintf("LoRaWAN air bytes (radio profile %s): PHYPayloads (MHDR, FHDR, FPort, FRMPayload, MIC) carrying the UDP payload (CoAP) as SCHC (RFC 8724/9011: the IPv6/UDP header compressed to nothing, the RuleID in FPort), fragmented above %d B (ACK-on-Error up, ACK-Always down) with the SCHC ACKs; no MAC acknowledgements (unconfirmed frames)",
			a.Profile.Name, a.lora.MaxPayload())
	}
	ack := "no MAC acknowledgements"
	if a.ack > 0 {
		ack = fmt.Sprintf("each frame acknowledged by a %d-byte ACK frame on air", a.ack)
	}
	return fmt.Sprintf("802.15.4 air bytes (radio profile %s): the UDP payload (CoAP, or DTLS records carrying CoAP) under 6LoWPAN IPHC and UDP NHC headers (RFC 6282), fragmented by RFC 4944 FRAG1/FRAGN into 127-byte frames, each with %d bytes of PHY header, MAC header and FCS; %s",
		a.Profile.Name, a.perFrame, ack)
}

// countLoRaWAN counts LoRaWAN frames: an uplink's SCHC fragments and the
// network's SCHC ACK after a fragmented one; a downlink's fragments at
// the RX1 limit and the device's SCHC ACK for each.
func (a *AirModel) countLoRaWAN(pkts []result.Packet) (up, down Air) {
	l := a.lora
	for _, p := range pkts {
		if p.Payload <= 0 {
			continue
		}
		if p.Dir == result.Up {
			fs, frag := l.UplinkFrames(p.Payload)
			for _, f := range fs {
				up.Frames, up.Bytes = up.Frames+1, up.Bytes+f
			}
			if frag {
				down.Frames, down.Bytes = down.Frames+1, down.Bytes+l.ACKFrame()
			}
			continue
		}
		fs := l.DownlinkFrames(p.Payload, l.MaxPayload())
		for _, f := range fs {
			down.Frames, down.Bytes = down.Frames+1, down.Bytes+f
		}
		if len(fs) > 1 {
			up.Frames, up.Bytes = up.Frames+len(fs), up.Bytes+len(fs)*l.ACKFrame()
		}
	}
	return up, down
}
