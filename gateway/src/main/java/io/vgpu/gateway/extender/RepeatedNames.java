package io.vgpu.gateway.extender;

import com.fasterxml.jackson.core.JsonParser;

import java.io.IOException;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The {@code NodeNames} of the last {@code /filter} request decoded, by position, so that the next request's names
 * can be the same {@code String} objects (kube-scheduler lists the same feasible nodes in the same order call after
 * call). Why: every later step looks names up in hash maps (the node views, the kept verdicts, each keyed by a
 * string of an earlier request): a freshly decoded name matches a key only through a byte-by-byte comparison with a
 * string somewhere else in the heap, 5,000 times twice per request at 5,000 nodes, while the very same object
 * matches by identity; and 5,000 new strings per request are garbage. Comparing a decoded name with the previous
 * request's name at the same position walks both lists in order, which the memory prefetches well.
 *
 * <p>Contract: a name is reused only when its text equals the decoded text exactly, so a decoded list is always
 * equal, element by element, to the list decoded without this; only object identity differs. Thread-safe:
 * concurrent requests each compare with whatever list was remembered last and leave their own (a plain array,
 * never changed after it is published).
 */
final class RepeatedNames {

    static final String[] NONE = new String[0];

    private volatile Remembered last = new Remembered(NONE);

    /** The names last remembered, by position (never changed by anyone). */
    String[] last() {
        return last.names;
    }

    /**
     * The names last remembered as an unmodifiable list, when {@code names} is exactly that array: a request that
     * repeats the last one name for name gets this one list (no list and no array of its own: 40 KB a request at
     * 5,000 nodes), else null.
     */
    List<String> listOf(String[] names) {
        Remembered r = last;
        return r.names == names ? r.list : null;
    }

    /** Remembers one request's names (copied). */
    void remember(List<String> names) {
        last = new Remembered(names.toArray(NONE));
    }

    /** One remembered array and its list view, published together. */
    private static final class Remembered {
        final String[] names;
        final List<String> list;

        Remembered(String[] names) {
            this.names = names;
            this.list = Collections.unmodifiableList(Arrays.asList(names));
        }
    }

    /** Whether the string value at the parser's current token is {@code known}'s text, read without a new string. */
    static boolean sameText(JsonParser parser, String known) throws IOException {
        int length = parser.getTextLength();
        if (length != known.length()) {
            return false;
        }
        char[] text = parser.getTextCharacters();
        int offset = parser.getTextOffset();
        for (int i = 0; i < length; i++) {
            if (text[offset + i] != known.charAt(i)) {
                return false;
            }
        }
        return true;
    }
}
