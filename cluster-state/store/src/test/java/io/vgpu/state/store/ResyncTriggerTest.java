package io.vgpu.state.store;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.MapPartitionLostEvent;
import com.hazelcast.partition.PartitionService;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Partitions taken over (or lost) close together reach the resync listeners in one call: each call walks every cached
 * pod, and a joining replica takes over hundreds of partitions one event at a time.
 */
class ResyncTriggerTest {

    private static HazelcastInstance member;
    private static PartitionService partitions;

    private final Queue<Runnable> flushes = new ArrayDeque<>();
    private final List<Predicate<String>> told = new ArrayList<>();

    @BeforeAll
    static void startMember() {
        member = Hazelcast.newHazelcastInstance(StoreFixtures.memberConfig(StoreFixtures.clusterOf(1, 0, 1)));
        partitions = member.getPartitionService();
    }

    @AfterAll
    static void stopMember() {
        member.getLifecycleService().terminate();
    }

    @Test
    void everyPartitionLostBeforeTheFlushIsToldInOneCall() {
        ResyncTrigger trigger = trigger();
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            keys.add("node-" + i);
        }
        keys.forEach(key -> lose(trigger, key));

        assertThat(told).as("nothing told before the flush").isEmpty();
        assertThat(flushes).as("one flush scheduled for all of them").hasSize(1);
        flushes.remove().run();

        assertThat(told).hasSize(1);
        assertThat(keys).allMatch(told.get(0));
    }

    @Test
    void aPartitionLostAfterAFlushIsToldInTheNextOneAndOnlyItsKeysMatch() {
        ResyncTrigger trigger = trigger();
        lose(trigger, "node-a");
        flushes.remove().run();
        String other = otherPartitionThan("node-a");

        lose(trigger, other);
        assertThat(flushes).as("a new flush").hasSize(1);
        flushes.remove().run();

        assertThat(told).hasSize(2);
        assertThat(told.get(1).test(other)).isTrue();
        assertThat(told.get(1).test("node-a")).as("a key of the partition told before").isFalse();
    }

    @Test
    void keysThisMemberDoesNotOwnNeverMatch() {
        ResyncTrigger trigger = new ResyncTrigger(partitions, key -> false, flushes::add);
        trigger.add(told::add);
        lose(trigger, "node-a");
        flushes.remove().run();

        assertThat(told).singleElement().matches(keys -> !keys.test("node-a"));
    }

    private ResyncTrigger trigger() {
        ResyncTrigger trigger = new ResyncTrigger(partitions, key -> true, flushes::add);
        trigger.add(told::add);
        return trigger;
    }

    private static void lose(ResyncTrigger trigger, String key) {
        int id = partitions.getPartition(key).getPartitionId();
        trigger.partitionLost(new MapPartitionLostEvent("vgpu-nodes", member.getCluster().getLocalMember(), 0, id));
    }

    private static String otherPartitionThan(String key) {
        int id = partitions.getPartition(key).getPartitionId();
        for (int i = 0; ; i++) {
            if (partitions.getPartition("other-" + i).getPartitionId() != id) {
                return "other-" + i;
            }
        }
    }
}
