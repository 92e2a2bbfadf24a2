"""Ids of the atari family: one per ALE game, `<Game>-v5`."""

from __future__ import annotations

import os
import re

from envpool.python.packages import package_dir
from envpool.python.registry import register

# (id without "-v5", ALE ROM name) of every game.
GAMES = (
    ("Adventure", "adventure"),
    ("AirRaid", "air_raid"),
    ("Alien", "alien"),
    ("Amidar", "amidar"),
    ("Assault", "assault"),
    ("Asterix", "asterix"),
    ("Asteroids", "asteroids"),
    ("Atlantis", "atlantis"),
    ("Atlantis2", "atlantis2"),
    ("Backgammon", "backgammon"),
    ("BankHeist", "bank_heist"),
    ("BasicMath", "basic_math"),
    ("BattleZone", "battle_zone"),
    ("BeamRider", "beam_rider"),
    ("Berzerk", "berzerk"),
    ("Blackjack", "blackjack"),
    ("Bowling", "bowling"),
    ("Boxing", "boxing"),
    ("Breakout", "breakout"),
    ("Carnival", "carnival"),
    ("Casino", "casino"),
    ("Centipede", "centipede"),
    ("ChopperCommand", "chopper_command"),
    ("CrazyClimber", "crazy_climber"),
    ("Crossbow", "crossbow"),
    ("Darkchambers", "darkchambers"),
    ("Defender", "defender"),
    ("DemonAttack", "demon_attack"),
    ("DonkeyKong", "donkey_kong"),
    ("DoubleDunk", "double_dunk"),
    ("Earthworld", "earthworld"),
    ("ElevatorAction", "elevator_action"),
    ("Enduro", "enduro"),
    ("Entombed", "entombed"),
    ("Et", "et"),
    ("FishingDerby", "fishing_derby"),
    ("FlagCapture", "flag_capture"),
    ("Freeway", "freeway"),
    ("Frogger", "frogger"),
    ("Frostbite", "frostbite"),
    ("Galaxian", "galaxian"),
    ("Gopher", "gopher"),
    ("Gravitar", "gravitar"),
    ("Hangman", "hangman"),
    ("HauntedHouse", "haunted_house"),
    ("Hero", "hero"),
    ("HumanCannonball", "human_cannonball"),
    ("IceHockey", "ice_hockey"),
    ("Jamesbond", "jamesbond"),
    ("JourneyEscape", "journey_escape"),
    ("Kaboom", "kaboom"),
    ("Kangaroo", "kangaroo"),
    ("KeystoneKapers", "keystone_kapers"),
    ("KingKong", "king_kong"),
    ("Klax", "klax"),
    ("Koolaid", "koolaid"),
    ("Krull", "krull"),
    ("KungFuMaster", "kung_fu_master"),
    ("LaserGates", "laser_gates"),
    ("LostLuggage", "lost_luggage"),
    ("MarioBros", "mario_bros"),
    ("MiniatureGolf", "miniature_golf"),
    ("MontezumaRevenge", "montezuma_revenge"),
    ("MrDo", "mr_do"),
    ("MsPacman", "ms_pacman"),
    ("NameThisGame", "name_this_game"),
    ("Othello", "othello"),
    ("Pacman", "pacman"),
    ("Phoenix", "phoenix"),
    ("Pitfall", "pitfall"),
    ("Pitfall2", "pitfall2"),
    ("Pong", "pong"),
    ("Pooyan", "pooyan"),
    ("PrivateEye", "private_eye"),
    ("Qbert", "qbert"),
    ("Riverraid", "riverraid"),
    ("RoadRunner", "road_runner"),
    ("Robotank", "robotank"),
    ("Seaquest", "seaquest"),
    ("SirLancelot", "sir_lancelot"),
    ("Skiing", "skiing"),
    ("Solaris", "solaris"),
    ("SpaceInvaders", "space_invaders"),
    ("SpaceWar", "space_war"),
    ("StarGunner", "star_gunner"),
    ("Superman", "superman"),
    ("Surround", "surround"),
    ("Tennis", "tennis"),
    ("Tetris", "tetris"),
    ("TicTacToe3d", "tic_tac_toe_3d"),
    ("TimePilot", "time_pilot"),
    ("Trondead", "trondead"),
    ("Turmoil", "turmoil"),
    ("Tutankham", "tutankham"),
    ("UpNDown", "up_n_down"),
    ("Venture", "venture"),
    ("VideoCheckers", "video_checkers"),
    ("VideoChess", "video_chess"),
    ("VideoCube", "video_cube"),
    ("VideoPinball", "video_pinball"),
    ("WizardOfWor", "wizard_of_wor"),
    ("WordZapper", "word_zapper"),
    ("YarsRevenge", "yars_revenge"),
    ("Zaxxon", "zaxxon"),
)


def rom_dir() -> str:
    """The folder of the ROMs shipped with ale-py ("" when it is missing).

    ALE_ROMS_DIR overrides it, as it does for ale-py.  The package is located,
    not imported.
    """
    override = os.environ.get("ALE_ROMS_DIR")
    if override:
        return override
    ale_py = package_dir("ale_py")
    return "" if ale_py is None else os.path.join(ale_py, "roms")


_ROM_DIR = rom_dir()

for _name, _task in GAMES:
    register(
        f"{_name}-v5",
        family="atari",
        env_class="Atari",
        task=_task,
        rom_dir=_ROM_DIR,
        max_episode_steps=27000,
    )


# What ALE's and gymnasium's users write, for the "did you mean" of an unknown
# option or id (read by envpool.python.registry).
OPTION_ALIASES = {
    "frameskip": "frame_skip",
    "max_num_frames_per_episode": "max_episode_steps",
    "obs_type": "gray_scale",
    "noop_max_steps": "noop_max",
    "terminal_on_life_loss": "episodic_life",
    "screen_size": "img_height",
    "grayscale_obs": "gray_scale",
}
_GAME_IDS = {name.lower(): f"{name}-v5" for name, _ in GAMES}
_ALE_ID = re.compile(r"(?:ALE/)?([A-Za-z0-9]+?)(NoFrameskip|Deterministic)?-v\d+")
_ALE_VARIANTS = {
    None: "",
    "NoFrameskip": " with frame_skip=1 (ALE's NoFrameskip ids)",
    "Deterministic": " with frame_skip=4 (ALE's Deterministic ids)",
}


def id_suggestions(task_id: str) -> list[str]:
    """This family's ids for ALE's and gymnasium's names of a game."""
    match = _ALE_ID.fullmatch(task_id)
    if match is None or match.group(1).lower() not in _GAME_IDS:
        return []
    return [_GAME_IDS[match.group(1).lower()] + _ALE_VARIANTS[match.group(2)]]


# -- What this family declares (docs/adding_a_family.md) --

# The id tools/smoke_test.py makes and steps in every wheel.
SMOKE_TEST_ID = "Pong-v5"
# The snapshot check takes a second or more an id (an emulator state of about 240 KB an env).
SNAPSHOT_CHECK_SAMPLED = True
# The ROMs (ale-py's, or ALE_ROMS_DIR): every id's rom_dir option defaults
# to it, so one pool can be pointed elsewhere.
ASSET_DIR = _ROM_DIR or None
# pip packages the family reads files from at run time (pinned in
# requirements-dev.txt); the wheel does not depend on them.
RUNTIME_PACKAGES = ["ale-py"]
