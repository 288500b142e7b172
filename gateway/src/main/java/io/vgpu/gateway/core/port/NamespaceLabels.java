package io.vgpu.gateway.core.port;

import java.util.Map;
import java.util.Optional;

/** The labels of a namespace from a cache (never a blocking call): what the webhook reads {@code vgpu.io/mode} from. */
public interface NamespaceLabels {

    /** No namespace is known. */
    NamespaceLabels NONE = namespace -> Optional.empty();

    /** The labels of {@code namespace}, empty when the cache does not know it. */
    Optional<Map<String, String>> labels(String namespace);
}
