package io.vgpu.deviceplugin.core.advertise;

/**
 * How a ListAndWatch stream reacts to the outcome of a send (HAMi {@code ListAndWatch}, pinned by
 * {@code TestListAndWatchSendError}): a failed first send fails the RPC with the send error; a failed
 * later send ends the stream with OK; a successful send keeps it open.
 *
 * <pre>
 *  open ─send#1 ok─► watching ─send#n ok─► watching
 *    │                   └─send#n failed─► end OK
 *    └─send#1 failed─► end with the send error
 * </pre>
 */
public final class WatchStreamRule {

    private WatchStreamRule() {
    }

    /** What the stream does next. */
    public enum Next {
        /** Keep the stream open and wait for the next change. */
        KEEP_OPEN,
        /** End the RPC with the send's error. */
        FAIL,
        /** End the RPC with status OK. */
        END_OK
    }

    /**
     * @param sendNumber 1 for the initial full list, then 2, 3, …
     * @param succeeded  whether that send succeeded
     */
    public static Next afterSend(int sendNumber, boolean succeeded) {
        if (succeeded) {
            return Next.KEEP_OPEN;
        }
        return sendNumber <= 1 ? Next.FAIL : Next.END_OK;
    }
}
