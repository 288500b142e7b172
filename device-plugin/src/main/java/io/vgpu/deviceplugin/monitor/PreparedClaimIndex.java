package io.vgpu.deviceplugin.monitor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.vgpu.deviceplugin.dra.kubelet.CheckpointFile;
import io.vgpu.deviceplugin.dra.prepare.ClaimRef;

/**
 * Which ResourceClaim a claim UID is: read from the DRA kubelet plugin's checkpoint (the durable
 * record of what is prepared on this node), re-read only when the file changes. The monitor needs it
 * because claim directories are named by UID while pods name claims. An unreadable checkpoint keeps
 * the last good answer (logged once). Thread-safe; blocking file reads.
 */
final class PreparedClaimIndex {

    private static final Logger LOG = LoggerFactory.getLogger(PreparedClaimIndex.class);

    private final Path checkpoint;
    private Object seen;
    private Map<String, ClaimRef> claims = Map.of();
    private String lastProblem = "";

    /** @param checkpoint the DRA plugin's checkpoint file */
    public PreparedClaimIndex(Path checkpoint) {
        this.checkpoint = Objects.requireNonNull(checkpoint, "checkpoint");
    }

    /** Claim UID → namespace and name, as prepared now. */
    public synchronized Map<String, ClaimRef> claims() {
        try {
            Object modified = Files.exists(checkpoint) ? version(Files.readAttributes(checkpoint, BasicFileAttributes.class))
                    : null;
            if (!Objects.equals(modified, seen)) {
                Map<String, ClaimRef> next = new LinkedHashMap<>();
                CheckpointFile.read(checkpoint).forEach((uid, p) -> next.put(uid, p.ref()));
                claims = Map.copyOf(next);
                seen = modified;
                lastProblem = "";
            }
        } catch (IOException | RuntimeException e) {
            if (!e.toString().equals(lastProblem)) {
                LOG.warn("cannot read the DRA checkpoint for claim labels: {}", e.toString());
                lastProblem = e.toString();
            }
        }
        return claims;
    }

    /** Every save renames a new file over the old one: a new inode, whatever the clock's resolution. */
    private static Object version(BasicFileAttributes a) {
        return a.fileKey() + "@" + a.lastModifiedTime() + "/" + a.size();
    }
}
