#!/bin/sh
# Generates the embedded RSA test keys once (they are committed; run this
# only to add keys): ten per size up to 4096 bits, so the seed002 method's
# ten distinct keys are ten keys, and two for 7680 and 15360 bits, whose
# generation takes minutes each. Existing files are kept, so the keys the
# benchmarks measured stay the same. TEST keys, for timing only.
#
#   sh scheme/testdata/keys/generate.sh      (from the repository root, or here)
#
# Go cannot regenerate them from a seed: since Go 1.26 rsa.GenerateKey
# ignores the random source it is given.
set -eu
cd "$(dirname "$0")"
gen() { # bits count
	i=0
	while [ "$i" -lt "$2" ]; do
		f="rsa-$1-$i.pem"
		if [ ! -e "$f" ]; then
			openssl genpkey -algorithm RSA -pkeyopt "rsa_keygen_bits:$1" -pkeyopt rsa_keygen_pubexp:65537 -out "$f"
			echo "made $f"
		fi
		i=$((i + 1))
	done
}
for bits in 512 768 1024 2048 3072 4096; do gen "$bits" 10; done
gen 7680 2
gen 15360 2
