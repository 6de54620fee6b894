"""A packed log reads as the list it stands for, whatever was appended, packed and dropped."""

import random

from tracklayer.packed import Packed


def test_a_packed_log_reads_as_its_list():
    rng = random.Random(7)
    for _ in range(100):
        packed, plain = Packed(), []
        for _ in range(40):
            r = rng.random()
            if r < 0.7:
                for _ in range(rng.randint(1, 50)):
                    x = {"id": rng.randint(0, 10 ** 6)}
                    packed.append(x)
                    plain.append(x)
            elif r < 0.85:
                packed.pack()
            else:
                n = rng.randint(0, len(plain))
                del packed[n:]
                del plain[n:]
            assert list(packed) == plain and len(packed) == len(plain)
            if plain:
                i = rng.randrange(len(plain))
                assert packed[i] == plain[i] and packed[-1] == plain[-1]
            a, b = sorted(rng.randint(0, len(plain)) for _ in range(2))
            assert packed[a:b] == plain[a:b]
            assert list(packed.copy()) == plain and list(packed.prefix(a)) == plain[:a]
