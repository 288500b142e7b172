package io.vgpu.gateway.core;

/**
 * Kubernetes' own rules for the identities the gateway puts into API paths and shared-state keys, checked
 * before any of them is used: names of pods and nodes are DNS-1123 subdomains (at most 253 characters),
 * namespaces DNS-1123 labels (at most 63), as the API server validates them ({@code ValidatePodName},
 * {@code ValidateNamespaceName}, {@code ValidateNodeName}); a UID is what the API server assigns,
 * an RFC 4122 UUID in its 36-character text form. A value that breaks these rules names no object that can
 * exist, so nothing is looked up, charged or written for it.
 *
 * <p>Each check answers null for a valid value, else the problem in the API server's wording (without the
 * value: the caller says which field it was, {@link #quote} shows the value). Pure and thread-safe.
 */
public final class KubeIdentity {

    /** Longest DNS-1123 subdomain (pod and node names). */
    static final int SUBDOMAIN_MAX = 253;
    /** Longest DNS-1123 label (namespaces). */
    static final int LABEL_MAX = 63;

    private static final String SUBDOMAIN = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
            + "characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', "
            + "regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    private static final String LABEL = "a lowercase RFC 1123 label must consist of lower case alphanumeric "
            + "characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name', or "
            + "'123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
    private static final int UID_LENGTH = 36;
    private static final int SHOWN = 80;

    private KubeIdentity() {
    }

    /** Null when {@code value} is a DNS-1123 subdomain (a pod or node name), else why not. */
    public static String subdomainProblem(String value) {
        if (value != null && value.length() > SUBDOMAIN_MAX) {
            return "must be no more than " + SUBDOMAIN_MAX + " characters";
        }
        if (value == null || value.isEmpty()) {
            return SUBDOMAIN;
        }
        for (String label : value.split("\\.", -1)) {
            if (!isLabelShape(label)) {
                return SUBDOMAIN;
            }
        }
        return null;
    }

    /** Null when {@code value} is a DNS-1123 label (a namespace), else why not. */
    public static String labelProblem(String value) {
        if (value != null && value.length() > LABEL_MAX) {
            return "must be no more than " + LABEL_MAX + " characters";
        }
        return value != null && isLabelShape(value) ? null : LABEL;
    }

    /** Null when {@code value} is a UID as the API server assigns them, else why not. */
    static String uidProblem(String value) {
        if (value == null || value.isEmpty()) {
            return "is empty";
        }
        if (value.length() != UID_LENGTH) {
            return "is not a Kubernetes UID (a UUID: 8-4-4-4-12 hexadecimal digits)";
        }
        for (int i = 0; i < UID_LENGTH; i++) {
            char c = value.charAt(i);
            boolean dash = i == 8 || i == 13 || i == 18 || i == 23;
            if (dash ? c != '-' : Character.digit(c, 16) < 0 || c > 'f') {
                return "is not a Kubernetes UID (a UUID: 8-4-4-4-12 hexadecimal digits)";
            }
        }
        return null;
    }

    /**
     * The first problem of a pod's identity, or null: its namespace, name and UID, each named in the message by the
     * caller's field name (e.g. {@code PodNamespace}, {@code Pod metadata.name}).
     */
    public static String podProblem(String namespaceField, String namespace, String nameField, String name,
                                    String uidField, String uid) {
        String problem = labelProblem(namespace);
        if (problem != null) {
            return namespaceField + " " + quote(namespace) + ": " + problem;
        }
        problem = subdomainProblem(name);
        if (problem != null) {
            return nameField + " " + quote(name) + ": " + problem;
        }
        problem = uidProblem(uid);
        if (problem == null) {
            return null;
        }
        return (uid == null || uid.isEmpty() ? uidField + " " : uidField + " " + quote(uid) + " ") + problem
                + "; the pod's UID is needed";
    }

    /**
     * {@code value} for a message: in double quotes, Java-escaped control characters, cut after 80 characters
     * (a name can be a megabyte long).
     */
    public static String quote(String value) {
        if (value == null) {
            return "null";
        }
        StringBuilder out = new StringBuilder(Math.min(value.length(), SHOWN) + 8).append('"');
        for (int i = 0; i < Math.min(value.length(), SHOWN); i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20 || c == 0x7f) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        out.append('"');
        return value.length() > SHOWN ? out.append("… (" + value.length() + " characters)").toString() : out.toString();
    }

    /** {@code [a-z0-9]([-a-z0-9]*[a-z0-9])?}, any length (a subdomain's parts are not limited to 63 each). */
    private static boolean isLabelShape(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean alnum = c >= 'a' && c <= 'z' || c >= '0' && c <= '9';
            if (!alnum && (c != '-' || i == 0 || i == s.length() - 1)) {
                return false;
            }
        }
        return true;
    }
}
