// Package decode runs a decode-step function token by token: it feeds each
// token and its position, carries every state (KV caches, conv states,
// recurrent states) from one step's results to the next step's arguments,
// and collects the logits of every step.
//
// The function follows the convention of rlx's model builders and
// importer (docs/import.md): arguments and results carry their names in the
// `rlx.name` attribute. The argument named "token" is the token id,
// tensor<1x1xi32>; the one named "pos" its position, tensor<1xi32> (0 for
// the first token). Every other argument is a state, and the result with
// the same name is its next value; states start as zeros. The result named
// "logits" is tensor<1xVxf32>. A function attribute `rlx.max_tokens`, when
// present, bounds how many tokens one sequence may hold (the capacity of
// fixed-size caches).
//
// Run decodes given tokens; Generate goes on greedily after them, each
// step's arg-max fed as the next token (transformers' generate with
// do_sample=False), until n are generated or one is an end-of-sequence
// token (Decoder.Stop); with Decoder.Pick set from a Sampling it applies a
// repetition penalty and samples (temperature, top-k, top-p, min-p) as
// generate(do_sample=True) does.
//
// A Session decodes one sequence that goes on from call to call (a
// conversation): Feed runs steps after the tokens fed so far, Generate
// picks and feeds, and Sync brings the session to a longer sequence,
// feeding only what follows the tokens already fed, or going back to
// its Mark (a copy of the states) or to the start when the sequence
// leaves them. Generate and Run are sessions of their own.
//
// A Decoder compiles nothing itself: it drives a ref.Program, so anything
// the interpreter runs (the graph as imported, or after hybrid-split) can
// be decoded, and two decodings of the same tokens can be compared bit for
// bit.
package decode
