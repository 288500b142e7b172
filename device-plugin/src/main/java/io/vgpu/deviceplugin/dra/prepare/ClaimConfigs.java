package io.vgpu.deviceplugin.dra.prepare;

import io.vgpu.deviceplugin.core.outcome.Outcome;
import io.vgpu.state.codec.Decoded;
import io.vgpu.state.dra.DraNames;
import io.vgpu.state.dra.VgpuConfig;
import io.vgpu.state.dra.VgpuConfigCodec;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The opaque configs of one allocation that are this driver's (spec/dra-spec.md §1.6), decoded, in
 * precedence order, and the {@link VgpuConfig} that results for a request.
 *
 * <p>Rules: entries for another driver are skipped (one claim may span drivers); an entry that is not
 * opaque, or an opaque one of this driver that does not decode ({@link VgpuConfigCodec}: wrong
 * apiVersion, unknown kind or field), fails the claim. Precedence, lowest first: entries
 * {@code FromClass}, then {@code FromClaim}; within a source, later entries over earlier ones. For a
 * request, every entry whose {@code requests} is empty, names the request, or names the result's
 * {@code request/subrequest} applies, layered field by field ({@link VgpuConfig#over}), so a class can
 * set a default policy and a claim a priority. Pure.
 */
final class ClaimConfigs {

    private static final String FROM_CLASS = "FromClass";

    private final List<Entry> entries;

    private ClaimConfigs(List<Entry> entries) {
        this.entries = entries;
    }

    /** Decodes the configs of an allocation; the first bad entry fails with its position and source. */
    static Outcome<ClaimConfigs> decode(List<ClaimObject.Config> configs) {
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < configs.size(); i++) {
            ClaimObject.Config c = configs.get(i);
            String where = "allocation config[" + i + "]" + (c.source().isEmpty() ? "" : " (" + c.source() + ")");
            if (c.opaque().isEmpty()) {
                return Outcome.failed(where + " is not an opaque config; " + DraNames.DRIVER + " reads opaque "
                        + DraNames.CONFIG_KIND + " entries only");
            }
            if (!DraNames.DRIVER.equals(c.opaque().get().driver())) {
                continue;
            }
            Decoded<VgpuConfig> decoded = VgpuConfigCodec.decode(c.opaque().get().parameters());
            if (!decoded.isOk()) {
                return Outcome.failed(where + " for driver " + DraNames.DRIVER + ": " + decoded.error());
            }
            entries.add(new Entry(FROM_CLASS.equals(c.source()) ? 0 : 1, i, c.requests(), decoded.value()));
        }
        entries.sort(Comparator.comparingInt(Entry::rank).thenComparingInt(Entry::position));
        return Outcome.ok(new ClaimConfigs(List.copyOf(entries)));
    }

    /** The layered config for a result of {@code request} ({@code req} or {@code req/sub}). */
    VgpuConfig forRequest(String request, String mainRequest) {
        VgpuConfig out = VgpuConfig.EMPTY;
        for (Entry e : entries) {
            if (e.requests().isEmpty() || e.requests().contains(request) || e.requests().contains(mainRequest)) {
                out = e.config().over(out);
            }
        }
        return out;
    }

    /** One decoded entry: rank 0 = class, 1 = claim; position in the allocation's list. */
    private record Entry(int rank, int position, List<String> requests, VgpuConfig config) {
    }
}
