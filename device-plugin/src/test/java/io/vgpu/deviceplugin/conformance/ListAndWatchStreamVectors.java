package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.deviceplugin.core.advertise.WatchStreamRule;

import java.util.List;

/** {@code list_and_watch_stream}: how send results end (or keep) the stream. */
public final class ListAndWatchStreamVectors implements NodeVectorFamily {

    @Override
    public List<String> check(JsonNode document, JsonNode vector) {
        Checks c = new Checks();
        JsonNode expected = vector.path("expected");
        List<String> results = NodeJson.strings(vector.path("input").path("send_results"));
        int sends = 0;
        String rpc = "open";
        for (String result : results) {
            sends++;
            WatchStreamRule.Next next = WatchStreamRule.afterSend(sends, !"error".equals(result));
            if (next == WatchStreamRule.Next.FAIL) {
                rpc = "error";
                break;
            }
            if (next == WatchStreamRule.Next.END_OK) {
                rpc = "ok";
                break;
            }
        }
        c.expect("sends", expected.path("sends").asInt(), sends);
        String want = expected.path("rpc_result").asText();
        if (!want.startsWith(rpc)) {
            c.fail("rpc_result: expected <" + want + "> but was <" + rpc + ">");
        }
        return c.list();
    }
}
