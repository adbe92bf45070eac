// Go's crypto/sha3 states, for keccakx's interop test (tests/go_state.rs).
//
//	export NAME N S MSGHEX SQUEEZE    -> MarshalBinary state (hex) after writing
//	                                     MSG and reading SQUEEZE bytes (-1: none)
//	continue NAME N S STATEHEX MOREHEX OUTLEN
//	                                  -> UnmarshalBinary, write MORE (unless the
//	                                     state is squeezing), then OUTLEN output
//	                                     bytes (hex): Sum for SHA3, Read for SHAKE
package main

import (
	"crypto/sha3"
	"encoding"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"os"
	"strconv"
)

type xof interface {
	io.Writer
	io.Reader
	encoding.BinaryMarshaler
	encoding.BinaryUnmarshaler
}

func build(name, n, s string) (hash.Hash, xof) {
	switch name {
	case "sha3-224":
		return sha3.New224(), nil
	case "sha3-256":
		return sha3.New256(), nil
	case "sha3-384":
		return sha3.New384(), nil
	case "sha3-512":
		return sha3.New512(), nil
	case "shake128":
		return nil, sha3.NewSHAKE128()
	case "shake256":
		return nil, sha3.NewSHAKE256()
	case "cshake128":
		return nil, sha3.NewCSHAKE128([]byte(n), []byte(s))
	case "cshake256":
		return nil, sha3.NewCSHAKE256([]byte(n), []byte(s))
	}
	panic("unknown " + name)
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func unhex(s string) []byte {
	b, err := hex.DecodeString(s)
	must(err)
	return b
}

func main() {
	a := os.Args[1:]
	h, x := build(a[1], a[2], a[3])
	switch a[0] {
	case "export":
		msg := unhex(a[4])
		k, _ := strconv.Atoi(a[5])
		var st []byte
		var err error
		if h != nil {
			h.Write(msg)
			st, err = h.(encoding.BinaryMarshaler).MarshalBinary()
		} else {
			x.Write(msg)
			if k >= 0 {
				x.Read(make([]byte, k))
			}
			st, err = x.MarshalBinary()
		}
		must(err)
		fmt.Println(hex.EncodeToString(st))
	case "continue":
		st, more := unhex(a[4]), unhex(a[5])
		n, _ := strconv.Atoi(a[6])
		if h != nil {
			must(h.(encoding.BinaryUnmarshaler).UnmarshalBinary(st))
			h.Write(more)
			fmt.Println(hex.EncodeToString(h.Sum(nil)))
		} else {
			must(x.UnmarshalBinary(st))
			if st[len(st)-1-(len(st)-207)] == 0 {
				x.Write(more)
			}
			out := make([]byte, n)
			x.Read(out)
			fmt.Println(hex.EncodeToString(out))
		}
	}
}
