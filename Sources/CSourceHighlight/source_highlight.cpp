// Drives Source-highlight's line highlighter with a formatter per element name that hands each
// run of text back to the caller, instead of the library's own HTML: Tagflow escapes and writes
// the markup itself.
#include "source_highlight.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <memory>
#include <string>

#include <srchilite/formatter.h>
#include <srchilite/formattermanager.h>
#include <srchilite/highlightrule.h>
#include <srchilite/langdefmanager.h>
#include <srchilite/regexrulefactory.h>
#include <srchilite/settings.h>
#include <srchilite/sourcehighlighter.h>

// The library's definition lexer (flex, C++ linkage). Its buffer outlives a parse: without a
// restart, a definition parsed after another one could lose its first rule.
void langdef_restart(FILE *input);

namespace {

struct Sink {
    tagflow_highlight_token token = nullptr;
    void *context = nullptr;
};

class ElementFormatter : public srchilite::Formatter {
  public:
    ElementFormatter(std::string element, const Sink *sink) : element(std::move(element)), sink(sink) {}

    void format(const std::string &text, const srchilite::FormatterParams *) override {
        if (!text.empty()) sink->token(sink->context, element.c_str(), text.data(), text.size());
    }

  private:
    std::string element;
    const Sink *sink;
};

char *copy(const std::string &text) {
    char *result = static_cast<char *>(std::malloc(text.size() + 1));
    if (result) std::memcpy(result, text.c_str(), text.size() + 1);
    return result;
}

void fail(char **error, const std::string &message) {
    if (error) *error = copy(message);
}

}  // namespace

struct tagflow_highlighter {
    Sink sink;
    srchilite::RegexRuleFactory ruleFactory;
    srchilite::LangDefManager languages{&ruleFactory};
    srchilite::HighlightStatePtr mainState;
    std::unique_ptr<srchilite::FormatterManager> formatters;
    std::map<std::string, bool> known;

    void add(const std::string &element) {
        if (element.empty() || known[element]) return;
        known[element] = true;
        formatters->addFormatter(element, srchilite::FormatterPtr(new ElementFormatter(element, &sink)));
    }

    /// Gives each element of the language its own formatter (the manager's default covers the rest).
    void addFormatters(const srchilite::HighlightStatePtr &state, std::map<const void *, bool> &seen) {
        if (!state || seen[state.get()]) return;
        seen[state.get()] = true;
        add(state->getDefaultElement());
        for (const auto &rule : state->getRuleList()) {
            for (const auto &element : rule->getElemList()) add(element);
            addFormatters(rule->getNextState(), seen);
        }
    }
};

extern "C" tagflow_highlighter *tagflow_highlighter_create(const char *data_dir, const char *file, char **error) {
    try {
        auto result = std::make_unique<tagflow_highlighter>();
        langdef_restart(nullptr);
        result->mainState = result->languages.getHighlightState(data_dir, file);
        result->formatters = std::make_unique<srchilite::FormatterManager>(
            srchilite::FormatterPtr(new ElementFormatter("normal", &result->sink)));
        std::map<const void *, bool> seen;
        result->addFormatters(result->mainState, seen);
        return result.release();
    } catch (const std::exception &exception) {
        fail(error, exception.what());
    } catch (...) {
        fail(error, "the language definition could not be loaded");
    }
    return nullptr;
}

extern "C" int tagflow_highlighter_run(
    tagflow_highlighter *highlighter, const char *code, size_t length, tagflow_highlight_token token,
    tagflow_highlight_line_end line_end, void *context, char **error) {
    highlighter->sink.token = token;
    highlighter->sink.context = context;
    // A line highlighter of its own for each block: it holds the states left open and the text
    // it buffers, none of which may reach the next block (the loaded definition is what is kept).
    srchilite::SourceHighlighter lines(highlighter->mainState);
    lines.setFormatterManager(highlighter->formatters.get());
    lines.setOptimize(true);
    try {
        size_t start = 0;
        std::string line;
        while (start < length) {
            const void *found = std::memchr(code + start, '\n', length - start);
            size_t end = found ? static_cast<size_t>(static_cast<const char *>(found) - code) : length;
            line.assign(code + start, end - start);
            lines.highlightParagraph(line);
            line_end(context);
            start = end + 1;
        }
        return 0;
    } catch (const std::exception &exception) {
        fail(error, exception.what());
    } catch (...) {
        fail(error, "the code could not be highlighted");
    }
    return -1;
}

extern "C" void tagflow_highlighter_destroy(tagflow_highlighter *highlighter) { delete highlighter; }

extern "C" char *tagflow_highlight_default_data_dir(void) {
    try {
        return copy(srchilite::Settings::retrieveDataDir());
    } catch (...) {
        return copy("/usr/share/source-highlight");
    }
}
