// Package timesync is a cryptocost scenario (see package scenario).
package timesync
