// Package sensor is a cryptocost scenario (see package scenario).
package sensor
