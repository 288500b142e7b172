package io.vgpu.gateway.kube;

import java.nio.charset.StandardCharsets;

/**
 * REST paths of the core/v1 objects the gateway touches. Every name is one escaped path segment: the gateway
 * checks names before it calls the API server, and this keeps a name that slipped past (or a future caller's) from
 * reaching another path ({@code a/b}, {@code ..}, {@code ?watch=1}).
 */
final class KubePaths {

    private KubePaths() {
    }

    /** {@code /api/v1/nodes/<name>}. */
    static String node(String name) {
        return "/api/v1/nodes/" + segment(name);
    }

    /** {@code /api/v1/namespaces/<ns>/pods/<name>}. */
    static String pod(String namespace, String name) {
        return "/api/v1/namespaces/" + segment(namespace) + "/pods/" + segment(name);
    }

    /** {@code /api/v1/namespaces/<ns>/pods/<name>/binding}. */
    static String binding(String namespace, String name) {
        return pod(namespace, name) + "/binding";
    }

    /** {@code /api/v1/namespaces/<ns>/events}. */
    static String events(String namespace) {
        return "/api/v1/namespaces/" + segment(namespace) + "/events";
    }

    /**
     * {@code value} as one path segment (RFC 3986): unreserved characters as they are, every other byte of its UTF-8
     * form percent-encoded, and the dot segments {@code .} and {@code ..} (which a server would resolve) encoded too.
     * An empty value (a node lock's owner is read from an annotation anyone may write) becomes {@code %00}, a name no
     * object has: an empty segment would address the collection instead.
     */
    static String segment(String value) {
        if (value.isEmpty()) {
            return "%00";
        }
        if (value.equals(".") || value.equals("..")) {
            return value.replace(".", "%2E");
        }
        StringBuilder out = new StringBuilder(value.length());
        for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.'
                    || c == '_' || c == '~') {
                out.append(c);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        return out.toString();
    }
}
