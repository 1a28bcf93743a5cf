package runtime

import (
	"crypto/sha256"
	"math/rand/v2"
	"testing"
)

// TestSHA256 compares the runtime's SHA-256 with crypto/sha256 on every length around
// the 64-byte blocks and the padding boundary, and on random texts.
func TestSHA256(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for n := 0; n < 300; n++ {
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(rng.Uint32())
		}
		if got, want := sha256Sum(data), sha256.Sum256(data); got != want {
			t.Fatalf("length %d: got %x, want %x", n, got, want)
		}
	}
	if got, want := SHA256("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"; got != want {
		t.Errorf("SHA256(abc) = %s, want %s (FIPS 180-4's example)", got, want)
	}
}
