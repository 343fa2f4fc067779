module github.com/cryptocost/cryptocost

go 1.26.8

require (
	github.com/ProtonMail/go-crypto v1.5.2
	github.com/aclements/go-moremath v0.0.0-20210112150236-f10218a38794
	github.com/aead/serpent v0.0.0-20160714141033-fba169763ea6
	github.com/cloudflare/circl v1.6.5
	github.com/emmansun/gmsm v0.15.5
	github.com/jzelinskie/whirlpool v0.0.0-20201016144138-0675e54bb004
	github.com/pion/dtls/v3 v3.1.15
	github.com/rogpeppe/go-internal v1.16.0
	github.com/spf13/cobra v1.10.2
	github.com/vbauerster/mpb/v8 v8.16.2
	github.com/zeebo/blake3 v0.2.4
	golang.org/x/crypto v0.59.0
	golang.org/x/perf v0.0.0-20260908200009-22c9c6c9d4da
	golang.org/x/sys v0.50.0
	golang.org/x/term v0.48.0
)

require (
	github.com/VividCortex/ewma v1.2.0 // indirect
	github.com/acarl005/stripansi v0.0.0-20180116102854-5a71ef0e047d // indirect
	github.com/clipperhouse/uax29/v2 v2.7.0 // indirect
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/klauspost/cpuid/v2 v2.0.12 // indirect
	github.com/mattn/go-runewidth v0.0.30 // indirect
	github.com/spf13/pflag v1.0.9 // indirect
	github.com/vbauerster/cupwriter v0.0.5 // indirect
	golang.org/x/tools v0.32.0 // indirect
)
