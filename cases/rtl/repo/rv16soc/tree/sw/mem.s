; stores and loads across the whole data memory, with a load used right away
    ldi  r2, 0x77
    sw   r2, 0(r0)
    ldi  r1, 0x40
    ldi  r3, 0x12
    sw   r3, 1(r1)
    lui  r4, 0x2
    ldi  r5, 0x55
    sw   r5, 0(r4)
    lui  r6, 0x6
    ldi  r5, -100
    sw   r5, 3(r6)
    lw   r2, 0(r0)
    lw   r3, 1(r1)
    add  r2, r2, r3
    lw   r5, 0(r4)
    add  r2, r2, r5
    lw   r5, 3(r6)
    add  r2, r2, r5
    lui  r7, 0x100
    sw   r2, 0(r7)
    halt
