//go:build cgo

package all

const cgoEnabled = true
