package io.vgpu.state.store;

import com.hazelcast.partition.Partition;
import com.hazelcast.partition.PartitionService;
import io.vgpu.testsupport.Eventually;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import static io.vgpu.state.store.StoreFixtures.clusterOf;
import static io.vgpu.state.store.StoreFixtures.start;
import static io.vgpu.state.store.StoreFixtures.startOne;
import static io.vgpu.state.store.StoreFixtures.terminate;
import static org.assertj.core.api.Assertions.assertThat;

/** A key's partition is looked up once; who owns it is read live, so ownership follows a migration. */
@Timeout(90)
class KeyPartitionsTest {

    private static final List<String> KEYS = IntStream.range(0, 64).mapToObj(i -> "node-" + i).toList();

    @Test
    void aKeysPartitionIsHashedOnceAndItsOwnerFollowsAMemberThatJoins() {
        StoreConfig store = clusterOf(2, 1, 0);
        List<HazelcastClusterState> replicas = new ArrayList<>(start(store, 1));
        try {
            HazelcastClusterState first = replicas.get(0);
            AtomicInteger lookups = new AtomicInteger();
            KeyPartitions partitions = new KeyPartitions(counting(first.member().getPartitionService(), lookups));

            List<Partition> before = KEYS.stream().map(partitions::of).toList();
            List<Partition> again = KEYS.stream().map(partitions::of).toList();

            assertThat(lookups).as("one lookup per key").hasValue(KEYS.size());
            for (int i = 0; i < KEYS.size(); i++) {
                assertThat(again.get(i)).isSameAs(before.get(i));
                assertThat(before.get(i).getPartitionId())
                        .isEqualTo(first.member().getPartitionService().getPartition(KEYS.get(i)).getPartitionId());
            }
            assertThat(KEYS).allMatch(first::ownsNode);

            replicas.add(startOne(store));
            StoreFixtures.awaitFormed(replicas);

            Eventually.passes(Duration.ofSeconds(30), () -> {
                assertThat(KEYS).as("each key owned by exactly one member, read through the kept partitions")
                        .allMatch(k -> first.ownsNode(k) != replicas.get(1).ownsNode(k));
                assertThat(KEYS).as("some keys moved to the member that joined").anyMatch(k -> !first.ownsNode(k));
                assertThat(KEYS).allMatch(k -> before.get(KEYS.indexOf(k)).getOwner().localMember()
                        == first.ownsNode(k));
            });
        } finally {
            terminate(replicas);
        }
    }

    /** {@code service} with its {@code getPartition(key)} calls counted. */
    private static PartitionService counting(PartitionService service, AtomicInteger lookups) {
        return (PartitionService) Proxy.newProxyInstance(PartitionService.class.getClassLoader(),
                new Class<?>[] {PartitionService.class}, (proxy, method, args) -> {
                    if (method.getName().equals("getPartition")) {
                        lookups.incrementAndGet();
                    }
                    return method.invoke(service, args);
                });
    }
}
