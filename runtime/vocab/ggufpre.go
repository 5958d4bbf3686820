package vocab

// ggufPre maps llama.cpp's byte-level pre-tokeniser names
// (tokenizer.ggml.pre) that rlx encodes to the regexes that split the
// text, in turn (each keeping matches and the text between them as
// pieces, as a tokenizer.json Split with behavior Isolated does), and
// whether the merges are skipped for a piece in the vocabulary
// (ignore_merges). The names and regexes are llama.cpp's
// (llama-vocab.cpp: the names in llama_vocab::impl::load, the regexes in
// llm_tokenizer_bpe's constructor; "default" is also what it takes for a
// file without tokenizer.ggml.pre); where llama.cpp rewrites a regex for
// its engine (case-insensitive contractions spelled out; tekken's and
// GPT-4o's letter classes as lookaheads over [^a-z] and [^A-Z], which
// take a non-ASCII lowercase letter as uppercase and leave combining
// marks out), the tokenizer.json original is used: the text splits as
// the model's own tokenizer split it, where llama.cpp's may differ.
// Three differences from the tokenizer.json regexes split alike and are
// kept: BLOOM's nested class [^(\s|[.,!?…])] flattened, as llama.cpp
// flattens it (Go's regexp has no nested classes); Bailing's possessive
// ?+ and ++ made greedy, as llama.cpp makes them (Go's has no possessive
// quantifiers; nothing backtracks into what they take); GPT-2's regex
// with the trailing \s+ that llama.cpp leaves off (a white space
// character the rest leaves unmatched is a piece alone either way).
// llama.cpp's lists that stand for other pre-tokenisers (Falcon's and
// the default's for tokenizer.json's Punctuation, ByteLevel and Digits)
// are used as llama.cpp has them.
var ggufPre = func() map[string]ggufPreTokenizer {
	m := map[string]ggufPreTokenizer{}
	for _, g := range []struct {
		names []string
		pre   ggufPreTokenizer
	}{
		{[]string{"default"}, ggufPreTokenizer{patterns: defaultPatterns}},
		{[]string{"gpt-2", "phi-2", "mpt", "olmo", "jais", "trillion", "granite-docling", "exaone4", "gigachat", "a.x-4.0", "mellum", "jina-es", "jina-de", "jina-v2-es", "jina-v2-de", "modern-bert"},
			ggufPreTokenizer{patterns: []string{gpt2Pattern}}},
		{[]string{"starcoder", "refact", "command-r", "smollm", "codeshell", "exaone", "minerva-7b", "mellum2"},
			ggufPreTokenizer{patterns: []string{`\p{N}`, gpt2Pattern}}},
		{[]string{"falcon"}, ggufPreTokenizer{patterns: falconPatterns}},
		{[]string{"chameleon"}, ggufPreTokenizer{patterns: chameleonPatterns, addBOS: true}},
		{[]string{"bloom", "gpt3-finnish", "poro-chat"}, ggufPreTokenizer{patterns: []string{bloomPattern}}},
		{[]string{"viking"}, ggufPreTokenizer{patterns: []string{bloomPattern, `\p{N}`}}},
		{[]string{"superbpe"}, ggufPreTokenizer{patterns: []string{`\p{N}+`, digitGroups}}},
		{[]string{"qwen2", "deepseek-r1-qwen", "kormo", "f2llmv2", "megrez", "stablelm2", "hunyuan", "solar-open", "grok-2"},
			ggufPreTokenizer{patterns: []string{qwen2Pattern}}},
		{[]string{"qwen35"}, ggufPreTokenizer{patterns: []string{qwen35Pattern}}},
		{[]string{"ufakzeka"}, ggufPreTokenizer{patterns: []string{ufakzekaPattern}}},
		{[]string{"bailingmoe", "bailingmoe2", "llada-moe"}, ggufPreTokenizer{patterns: []string{bailingPattern}}},
		{[]string{"seed-coder"}, ggufPreTokenizer{patterns: []string{seedCoderPattern}}},
		{[]string{"exaone-moe"}, ggufPreTokenizer{patterns: []string{exaoneMoEPattern}}},
		{[]string{"laguna"}, ggufPreTokenizer{patterns: []string{`[^\n]+|[\n]+`, qwen2Pattern}}},
		{[]string{"llama3", "llama-v3", "llama-bpe", "falcon3", "falcon-h1", "pixtral", "midm-2.0", "lfm2", "jina-v5-nano"},
			ggufPreTokenizer{patterns: []string{llama3Pattern}, ignoreMerges: true, addBOS: true}},
		{[]string{"dbrx", "smaug-bpe", "glm4", "chatglm-bpe"}, ggufPreTokenizer{patterns: []string{llama3Pattern}}},
		{[]string{"minicpm5"}, ggufPreTokenizer{patterns: []string{`\p{N}{1,3}`, minicpm5Pattern}, ignoreMerges: true}},
		{[]string{"deepseek-llm"}, ggufPreTokenizer{patterns: deepseekLLMPatterns}},
		{[]string{"deepseek-coder"}, ggufPreTokenizer{patterns: deepseekCoderPatterns}},
		{[]string{"deepseek-v3", "hunyuan-dense", "joyai-llm", "hy_v4"}, ggufPreTokenizer{patterns: deepseek3Patterns}},
		{[]string{"spark2_5"}, ggufPreTokenizer{patterns: spark25Patterns}},
		{[]string{"tekken"}, ggufPreTokenizer{patterns: []string{tekkenPattern}, ignoreMerges: true, addBOS: true}},
		{[]string{"gpt-4o", "llama4", "kanana2", "talkie", "minimax-m2"}, ggufPreTokenizer{patterns: []string{gpt4oPattern}}},
	} {
		for _, n := range g.names {
			m[n] = g.pre
		}
	}
	return m
}()

type ggufPreTokenizer struct {
	patterns     []string
	ignoreMerges bool
	// addBOS: llama.cpp adds the BOS token where the file has no
	// tokenizer.ggml.add_bos_token (its llama3 group, tekken, chameleon).
	addBOS bool
}

// steps returns the pre-tokenisers that split by p's regexes in turn,
// the last one spelling each piece's bytes with GPT-2's table.
func (p ggufPreTokenizer) steps() ([]preStep, error) {
	var steps []preStep
	for i, pattern := range p.patterns {
		split, err := newSplitter(pattern)
		if err != nil {
			return nil, err
		}
		if i == len(p.patterns)-1 {
			steps = append(steps, byteLevelStep(false, split))
		} else {
			steps = append(steps, func(p string, _ bool) []string { return split.split(p) })
		}
	}
	return steps, nil
}

// The pre-tokeniser regexes of Qwen2, Qwen3.5 (marks with letters),
// Llama 3 and DeepSeek V3 (numbers of up to three digits, then runs of
// CJK ideographs and kana, then the rest), as their tokenizer.json and
// llama.cpp's llama-vocab.cpp give them.
const (
	qwen2Pattern  = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	qwen35Pattern = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?[\p{L}\p{M}]+|\p{N}| ?[^\s\p{L}\p{M}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	llama3Pattern = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	// Mistral's tekken (Nemo, Small 3) and GPT-4o's o200k (gpt-oss,
	// Llama 4): words split where lowercase turns to uppercase.
	tekkenPattern = `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	gpt4oPattern  = `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`
)

// Qwen2's kin: ufakzeka's without the contractions (Turkish suffixes
// after an apostrophe stay with it); Bailing's (Ling, LLaDA-MoE), which
// splits as Qwen2's; Seed-Coder's, whose punctuation takes no newlines;
// EXAONE MoE's, whose words take marks and single spaces between
// letters; MiniCPM5's, after numbers of up to three digits.
const (
	ufakzekaPattern  = `[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	bailingPattern   = `'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]|\s+(?!\S)|\s+`
	seedCoderPattern = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1}| ?[^\s\p{L}\p{N}\r\n]+|\s*[\r\n]+|\s+(?!\S)|\s+`
	exaoneMoEPattern = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?(?:\p{L}\p{M}*(?: \p{L}\p{M}*)*)+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]?|\s*[\r\n]|\s+(?!\S)|\s+`
	minicpm5Pattern  = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}+| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`
)

// bloomPattern is BLOOM's (and GPT-3 Finnish's, Poro's, Viking's): an
// optional space and a run of anything but white space, parentheses,
// | and sentence punctuation.
const bloomPattern = ` ?[^(\s|.,!?…。，、।۔،)]+`

// The regex lists llama.cpp gives for a file without a pre-tokeniser and
// for Falcon: punctuation runs ($+<=>^~| and, Falcon's, ` counted in),
// GPT-2's regex, number runs (the default's), runs of three ASCII digits.
var (
	defaultPatterns = []string{`[\p{P}\$\+<=>\^~\|]+`, gpt2Pattern, `\p{N}+`, `[0-9][0-9][0-9]`}
	falconPatterns  = []string{"[\\p{P}\\$\\+<=>\\^~\\|`]+", gpt2Pattern, `[0-9][0-9][0-9]`}
)

// chameleonPatterns are Chameleon's: its sentinel and image tokens'
// text, tabs, newlines and runs of four or two spaces, each digit, each
// punctuation character, then GPT-2's regex.
var chameleonPatterns = []string{
	`<sentinel:[0-9]+>`,
	`(IMGIMG)((A|B|C|D|E|F|G|H|I){1,4})Z`,
	`([\t\n]|    |  )`,
	`\p{N}`,
	"[\\p{P}!-/:-@\\[-`{-~]",
	gpt2Pattern,
}

// DeepSeek LLM's and DeepSeek Coder's: each newline, then letters (the
// cased ones, DeepSeek LLM's) and punctuation each with an optional
// white space before, trailing white space (DeepSeek LLM's), CJK and
// Hangul runs, numbers (each digit alone, DeepSeek Coder's). Six of
// DeepSeek LLM's letters are written \u escapes: Unicode normalization
// would replace them (the ohm sign by omega, the kelvin sign by K), as
// an editor or a copy may do unasked.
var (
	deepseekLLMPatterns = []string{
		"[\r\n]",
		"\\s?[A-Za-zµÀ-ÖØ-öø-ƺƼ-ƿǄ-ʓʕ-ʯͰ-ͳͶͷͻ-ͽͿΆΈ-ΊΌΎ-ΡΣ-ϵϷ-ҁҊ-ԯԱ-ՖႠ-ჅᎠ-Ᏽᏸ-ᏽᲐ-ᲺᲽ-Ჿᴀ-ᴫᵫ-ᵷᵹ-ᶚḀ-ἕἘ-Ἕἠ-ὅὈ-Ὅὐ-ὗὙὛὝὟ-\u1f7dᾀ-ᾴᾶ-ᾼ\u1fbeῂ-ῄῆ-ῌῐ-\u1fd3ῖ-\u1fdbῠ-Ῥῲ-ῴῶ-ῼℂℇℊ-ℓℕℙ-ℝℤ\u2126ℨ\u212a-ℭℯ-ℴℹℼ-ℿⅅ-ⅉⅎↃↄⰀ-ⱻⱾ-ⳤⳫ-ⳮⳲⳳꙀ-ꙭꚀ-ꚛꜢ-ꝯꝱ-ꞇꞋ-ꞎꭰ-ꮿﬀ-ﬆﬓ-ﬗＡ-Ｚａ-ｚ𐐀-𐑏𐒰-𐓓𐓘-𐓻𐲀-𐲲𐳀-𐳲𑢠-𑣟𞤀-𞥃]+",
		`\s?[!-/:-~！-／：-～‘-‟　-。]+`,
		`\s+$`,
		`[一-龥ࠀ-一가-퟿]+`,
		`\p{N}+`,
	}
	deepseekCoderPatterns = []string{
		"[\r\n]",
		`\s?\p{L}+`,
		`\s?\p{P}+`,
		`[一-龥ࠀ-一가-퟿]+`,
		`\p{N}`,
	}
)

var deepseek3Patterns = []string{
	`\p{N}{1,3}`,
	`[一-龥぀-ゟ゠-ヿ]+`,
	"[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+|[^\r\n\\p{L}\\p{P}\\p{S}]?[\\p{L}\\p{M}]+| ?[\\p{P}\\p{S}]+[\r\n]*|\\s*[\r\n]+|\\s+(?!\\S)|\\s+",
}

// spark25Patterns are Spark 2.5's: DeepSeek V3's, with each newline
// alone and no newlines after punctuation, then each digit alone.
var spark25Patterns = []string{
	`\p{N}{1,3}`,
	`[一-龥぀-ゟ゠-ヿ]+`,
	"[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+|[^\r\n\\p{L}\\p{P}\\p{S}]?[\\p{L}\\p{M}]+| ?[\\p{P}\\p{S}]+|[\r\n]|\\s+(?!\\S)|\\s+",
	`\p{N}`,
}
