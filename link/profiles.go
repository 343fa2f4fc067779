package link

import "github.com/cryptocost/cryptocost/catalog"

// The built-in links. Rates are what the link carries IP packets at, so
// where only a PHY rate is standard the rate here is derived from the
// standard's frame timing (the derivation is in the source string), and
// what is a plain assumption says "unverified". The header model charges
// uncompressed IPv4/TCP headers everywhere, which overstates BLE and
// 802.15.4, where 6LoWPAN (RFC 6282) compresses them.
func init() {
	q := catalog.Q
	profiles = []Profile{
		{
			Name:        "LAN",
			Technology:  "",
			Radio:       "",
			Description: "switched gigabit Ethernet, the S000 study's local case (RTT < 1 ms)",
			Aliases:     []string{"ethernet", "local-lan"},
			Latency:     q(0.1, "ms", "unverified: one switch hop and two host stacks; S000's local server had RTT < 1 ms"),
			RateUp:      q(1, "Gbit/s", "802.3ab: 1000BASE-T"),
			RateDown:    q(1, "Gbit/s", "802.3ab: 1000BASE-T"),
			MTU:         q(1500, "B", "RFC 894 (IP over Ethernet)"),
		},
		{
			Name:        "WiFi-802.11g",
			Technology:  "wifi",
			Radio:       "wifi-aro",
			Description: "802.11g at the 54 Mbit/s PHY rate, one station, no contention (S000's WLAN)",
			Aliases:     []string{"wifi", "wlan", "802.11g", "80211g"},
			Latency:     q(1, "ms", "unverified: one WLAN hop plus a LAN to the server"),
			// 54 Mbit/s ERP-OFDM, 1500-B IP packets, short slots, no RTS/CTS:
			// DIFS 28 µs + mean backoff 7.5 slots × 9 µs + data 254 µs (20 µs
			// preamble, 57 OFDM symbols of 4 µs, 6 µs signal extension) + SIFS
			// 10 µs + ACK 34 µs = 393.5 µs per 1500 B ≈ 30.5 Mbit/s.
			RateUp:   q(30, "Mbit/s", "802.11-2007, derived from §17/§19 ERP-OFDM timing at 54 Mbit/s: 393.5 µs per 1500-B packet incl. DIFS, mean backoff, SIFS and ACK"),
			RateDown: q(30, "Mbit/s", "802.11-2007, derived from §17/§19 ERP-OFDM timing at 54 Mbit/s: 393.5 µs per 1500-B packet incl. DIFS, mean backoff, SIFS and ACK"),
			MTU:      q(1500, "B", "RFC 1042 / IEEE 802.2 LLC-SNAP bridged to Ethernet's 1500 B"),
		},
		{
			Name:        "3G",
			Technology:  "umts",
			Radio:       "umts-aro",
			Description: "WCDMA/HSDPA as on S000's Nokia N95: HSDPA category 5/6 down, Release 99 up",
			Aliases:     []string{"hsdpa", "umts", "hspa"},
			Latency:     q(50, "ms", "unverified: HSPA round trips of about 100 ms once the radio is in CELL_DCH"),
			RateUp:      q(384, "kbit/s", "3GPP-TS25.306 (Release 99 WCDMA uplink, 384 kbit/s class); Nokia N95 specification"),
			RateDown:    q(3.6, "Mbit/s", "3GPP-TS25.306 Table 5.1a (HSDPA categories 5/6); Nokia N95 specification"),
			MTU:         q(1500, "B", "unverified: operator PDP-context MTU"),
		},
		{
			Name:        "LTE",
			Technology:  "lte",
			Radio:       "lte-aro",
			Description: "a commercial LTE network, median throughput of 4GTest users",
			Aliases:     []string{"4g"},
			Latency:     q(35, "ms", "unverified: LTE round trips of about 70 ms (order of Huang et al., MobiSys 2012)"),
			RateUp:      q(6, "Mbit/s", "Huang2012: median LTE uplink of 4GTest users"),
			RateDown:    q(13, "Mbit/s", "Huang2012: median LTE downlink of 4GTest users"),
			MTU:         q(1500, "B", "unverified: operator bearer MTU"),
		},
		{
			Name:        "BLE",
			Technology:  "ble",
			Radio:       "ble-nrf52840",
			Description: "Bluetooth Low Energy 4.2 LE 1M PHY with Data Length Extension, IPv6 over BLE",
			Aliases:     []string{"bluetooth-le", "ble4.2"},
			Latency:     q(15, "ms", "unverified: half of a 30 ms connection interval (the spec allows 7.5 ms to 4 s, Core v4.0 Vol 6 Part B §4.5.1)"),
			// One 251-B LL payload: (1+4+2+251+4+3) B × 8 µs = 2120 µs, T_IFS
			// 150 µs, an empty 10-B PDU back 80 µs, T_IFS 150 µs = 2500 µs per
			// 247 B of L2CAP payload ≈ 790 kbit/s.
			RateUp:   q(790, "kbit/s", "BT-Core-4.2, derived from Vol 6 Part B §2.4 (251-B PDUs with MIC), T_IFS 150 µs, one empty PDU per data PDU"),
			RateDown: q(790, "kbit/s", "BT-Core-4.2, derived from Vol 6 Part B §2.4 (251-B PDUs with MIC), T_IFS 150 µs, one empty PDU per data PDU"),
			MTU:      q(1280, "B", "RFC 7668 (IPv6 over BLE: 1280-B MTU through L2CAP segmentation)"),
		},
		{
			// S001's transport: the PC and the phone over RFCOMM on a
			// Bluetooth Classic ACL link. The emulator models a TCP path, so
			// the profile is chosen to move RFCOMM's frames at RFCOMM's pace:
			// one segment is one RFCOMM frame of Android's default size, and
			// the rate is the one at which the baseband carries such frames.
			// The header model still charges 52 B of TCP/IPv4 per segment,
			// which RFCOMM does not send (it sends 5 B of RFCOMM and 4 B of
			// L2CAP header): byte counts on this link overstate the air bytes
			// by 43 B per frame. Priced on the radio profile bredr-cc256x,
			// whose aliases include this link's name.
			Name:        "Bluetooth-BR/EDR",
			Technology:  "bredr",
			Radio:       "bredr-cc256x",
			Description: "Bluetooth Classic EDR 2 Mbit/s ACL link carrying RFCOMM (S001's PC ↔ phone), 990-B RFCOMM frames",
			Aliases:     []string{"bluetooth-bredr", "bredr", "bluetooth-classic", "rfcomm", "bt-classic"},
			Latency:     q(10, "ms", "unverified: a slave's wait for the master's poll in active mode (T_poll, Bluetooth Core Vol 2 Part B §8.6.1) plus the host-controller transport and stack; S001 gives no round trip"),
			// Bluetooth Core Vol 2 Part B §6.7 (Table 6.10): a 2-DH5 packet
			// carries up to 679 B of ACL payload in 5 slots of 625 µs, and the
			// return packet takes a 6th. An RFCOMM frame of 990 B (+5 B RFCOMM
			// header/FCS, +4 B L2CAP = 999 B) starts a new baseband packet,
			// so it takes two 2-DH5 packets: 12 slots = 7.5 ms, i.e. 1056
			// kbit/s of RFCOMM payload. The emulator charges a segment its
			// payload plus 52 B, so 1042 B per 7.5 ms ≈ 1.111 Mbit/s puts each
			// 990-B segment on the air for the baseband's 7.5 ms.
			RateUp:   q(1.111, "Mbit/s", "BT-Core, derived from Vol 2 Part B §6.7 (2-DH5: 679 B in 5 slots + 1 return slot of 625 µs): a 990-B RFCOMM frame in two 2-DH5 packets takes 7.5 ms; charged as 990 + 52 B"),
			RateDown: q(1.111, "Mbit/s", "BT-Core, derived from Vol 2 Part B §6.7 (2-DH5: 679 B in 5 slots + 1 return slot of 625 µs): a 990-B RFCOMM frame in two 2-DH5 packets takes 7.5 ms; charged as 990 + 52 B"),
			// MSS = MTU − 52 = 990: one segment per RFCOMM frame.
			MTU: q(1042, "B", "Bluedroid bta_jv_api.h, derived: 990-B RFCOMM frames (BTA_JV_DEF_RFC_MTU = 3 × 330) + the model's 52 B of TCP/IPv4 headers"),
		},
		{
			Name:        "802.15.4",
			Technology:  "ieee802154",
			Radio:       "ieee802154-telosb",
			Description: "IEEE 802.15.4 2.4 GHz O-QPSK (the TelosB's CC2420, S003), one hop, 6LoWPAN",
			Aliases:     []string{"ieee802154", "802154", "zigbee", "6lowpan"},
			Latency:     q(2, "ms", "unverified: one hop, radio turnaround and driver"),
			// A 127-B frame + 6 B PHY header = 4.256 ms at 250 kbit/s, mean
			// CSMA-CA backoff (2^3−1)/2 × 320 µs = 1.12 ms, CCA 128 µs,
			// turnaround 192 µs, ACK 352 µs ≈ 6 ms per frame carrying ≈ 95 B
			// of IPv6 packet after MAC (≈ 25 B) and fragment (≈ 5 B) headers
			// ≈ 125 kbit/s.
			RateUp:   q(125, "kbit/s", "802.15.4, derived from §6.5 (250 kbit/s O-QPSK) and §7.5.1.4 CSMA-CA (macMinBE 3): ≈ 6 ms per 127-B frame carrying ≈ 95 B of IP"),
			RateDown: q(125, "kbit/s", "802.15.4, derived from §6.5 (250 kbit/s O-QPSK) and §7.5.1.4 CSMA-CA (macMinBE 3): ≈ 6 ms per 127-B frame carrying ≈ 95 B of IP"),
			MTU:      q(1280, "B", "RFC 4944 §4 (IPv6 over 802.15.4: 1280-B MTU through 6LoWPAN fragmentation)"),
		},
		{
			Name:        "LoRaWAN",
			Technology:  "lorawan",
			Radio:       "lorawan-eu868-sf7",
			Description: "LoRaWAN class A EU868 at SF7/125 kHz (DR5), IPv6 over SCHC (RFC 8724, RFC 9011); the radio model adds duty cycle and fragmentation",
			Aliases:     []string{"lorawan-sf7", "lora"},
			// The emulator carries the bytes at DR5's rate with the
			// backhaul's latency only: class A's wait for RX1 (1 s after
			// the uplink), the duty cycle and SCHC fragmentation are the
			// radio model's (radio/lorawan.go), which adds them to the
			// trace as delay-added; emulating them too would count them
			// twice and make the network's answer look late for RX1.
			Latency: q(20, "ms", "unverified: gateway to network server to application server, one way"),
			// DR5's bit rate; the 1 % duty cycle and SCHC fragmentation
			// are left to the radio model (radio/lorawan.go), which prices
			// the trace with them.
			RateUp:   q(5470, "bit/s", "RP002 EU863-870: DR5 (SF7/125 kHz) 5470 bit/s"),
			RateDown: q(5470, "bit/s", "RP002 EU863-870: DR5 in RX1 (RX1DROffset 0)"),
			MTU:      q(1280, "B", "RFC 8724 §1: SCHC carries IPv6's 1280-B minimum MTU through fragmentation"),
		},
	}
}
